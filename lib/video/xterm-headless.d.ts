/**
 * @xterm/headless ships its ESM build at lib-headless/xterm-headless.mjs but its package.json
 * points `module` at a file that does not exist (lib/xterm.mjs), which trips bundlers; we import
 * the ESM file directly and give it the package's own types.
 */
declare module '@xterm/headless/lib-headless/xterm-headless.mjs' {
  export { Terminal } from '@xterm/headless';
}
