import Prism from 'prismjs';

/**
 * Prism's language files register themselves on a global `Prism`. Setting it here, in a module
 * imported before them, makes that work the same in webpack, Next and Node (tests). `manual`
 * stops Prism from highlighting the page by itself.
 */
Prism.manual = true;
(globalThis as { Prism?: typeof Prism }).Prism = Prism;

export { Prism };
