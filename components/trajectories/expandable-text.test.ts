import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import { collapsedText } from './collapsed-text';
import { ExpandableText } from './expandable-text';
import { TypesetExpandableText } from './typeset-expandable-text';

describe('collapsedText', () => {
  it('keeps the first lines, at most maxChars, and closes a cut text with an ellipsis line', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const c = collapsedText(text, 40, 6000);
    expect(c).toMatchObject({ long: true, lines: 50 });
    expect(c.shown.split('\n')).toHaveLength(40);
    expect(c.rich).toBe(`${c.shown}\n\n…`);
    expect(collapsedText(text, 40, 20).shown).toBe(text.slice(0, 20));
    expect(collapsedText('short', 40, 6000)).toEqual({ shown: 'short', lines: 1, long: false, rich: 'short' });
  });
});

describe('ExpandableText', () => {
  const render = (props: Parameters<typeof ExpandableText>[0]) => renderToStaticMarkup(createElement(ExpandableText, props));

  it('shows the typeset node its server component gave it, and does not typeset the text again', () => {
    const out = render({
      text: 'So $x^2$.',
      rich: true,
      className: 'c',
      typeset: createElement('span', { 'data-server': '' }, 'typeset by the server'),
    });
    expect(out).toContain('<span data-server="">typeset by the server</span>');
    expect(out).not.toContain('katex');
  });

  it('typesets rich text itself when no typeset node is given (its code in a chunk of its own: plain text until the chunk is in)', async () => {
    const props = { text: 'So $x^2$.', rich: true, className: 'c' };
    // the synchronous render does not wait for the lazy chunk: the fallback is the text, not typeset
    const first = render(props);
    expect(first).toContain('So $x^2$.');
    expect(first).not.toContain('katex');
    // the streaming render (what Next's server does) waits for it: the page's HTML is typeset
    const { prelude } = await prerender(createElement(ExpandableText, props));
    const html = await new Response(prelude).text();
    expect(html).toContain('class="katex"');
  });

  it('leaves text that will be typeset when near as plain text in the server render', () => {
    const out = render({ text: 'So $x^2$.', rich: true, className: 'c', typesetWhenNear: true });
    expect(out).toContain('data-typeset="when-near"');
    expect(out).not.toContain('katex');
  });
});

describe('TypesetExpandableText', () => {
  const long = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}: $x_{${i}}^2$`).join('\n');
  const server = (props: Parameters<typeof TypesetExpandableText>[0]) => renderToStaticMarkup(createElement(TypesetExpandableText, props));
  const client = (props: Parameters<typeof ExpandableText>[0]) => renderToStaticMarkup(createElement(ExpandableText, props));

  it("renders on the server what the browser's ExpandableText renders (hydration matches), typeset and cut alike", () => {
    const props = { text: long, maxLines: 5, maxChars: 4000, className: 'c' };
    const out = server(props);
    expect(out).toBe(client({ ...props, rich: true }));
    expect(out.split('class="katex"').length - 1).toBe(5);
    expect(out).toContain('Show all (12 lines');
  });

  it('typesets nothing for text the browser typesets when near', () => {
    const props = { text: long, maxLines: 5, className: 'c', typesetWhenNear: true };
    expect(server(props)).toBe(client({ ...props, rich: true }));
    expect(server(props)).not.toContain('katex');
  });
});
