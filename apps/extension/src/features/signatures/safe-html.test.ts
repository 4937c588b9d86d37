// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { buildSafeFragment } from './safe-html';

/** The fragment as markup, to compare (serialized by the test only). */
function built(html: string): string {
  const box = document.createElement('div');
  box.append(buildSafeFragment(html, document));
  return box.innerHTML;
}

describe('buildSafeFragment (signatures into a live mail editor)', () => {
  it('keeps simple formatting, lists, http(s) / mailto / tel links and https images', () => {
    expect(
      built(
        '<p><b>Alex Rivera</b> · <i>Events</i> <u>team</u> <s>old</s> <strong>S</strong> <em>E</em></p>' +
          '<div><span>+1 555</span><br><a href="https://example.com/a?b=1">site</a> <a href="mailto:alex@example.com">mail</a> ' +
          '<a href="tel:+15551234">call</a> <a href="http://example.org">old site</a></div>' +
          '<ul><li>one</li></ul><ol><li>two</li></ol><img src="https://cdn.example.com/logo.png">',
      ),
    ).toBe(
      '<p><b>Alex Rivera</b> · <i>Events</i> <u>team</u> <s>old</s> <strong>S</strong> <em>E</em></p>' +
        '<div><span>+1 555</span><br><a href="https://example.com/a?b=1">site</a> <a href="mailto:alex@example.com">mail</a> ' +
        '<a href="tel:+15551234">call</a> <a href="http://example.org/">old site</a></div>' +
        '<ul><li>one</li></ul><ol><li>two</li></ol><img src="https://cdn.example.com/logo.png">',
    );
  });

  it('drops scripts, styles, frames, svg, math, forms and templates with their content', () => {
    expect(
      built(
        'A<script>alert(1)</script><style>body{display:none}</style><iframe src="https://evil.test"></iframe>' +
          '<svg><script>alert(2)</script><a href="javascript:alert(3)">x</a><foreignObject><b>svg</b></foreignObject></svg>' +
          '<math><mi>m</mi></math><template><b>t</b></template><object data="x"></object><embed src="x">' +
          '<form action="https://evil.test"><input name="q"><button>go</button></form><noscript><b>n</b></noscript>' +
          '<textarea>t</textarea><link rel="stylesheet" href="https://evil.test/x.css"><meta http-equiv="refresh">B',
      ),
    ).toBe('AB');
  });

  it('drops every attribute but a safe href, src and an image’s size and alt: event handlers, styles, ids, classes, javascript: and data: URLs', () => {
    expect(
      built(
        '<b onclick="alert(1)" style="color:red" id="x" class="y" data-a="1">b</b>' +
          '<a href="javascript:alert(1)" onmouseover="alert(2)" target="_blank">js</a>' +
          '<a href=" JaVaScRiPt:alert(1)">js2</a><a href="data:text/html,<script>alert(1)</script>">data</a>' +
          '<a href="/relative">rel</a><a href="vbscript:msgbox">vb</a>' +
          '<img src="http://cdn.example.com/a.png"><img src="javascript:alert(1)"><img src="data:image/png;base64,AAAA">' +
          '<img src="https://cdn.example.com/ok.png" onerror="alert(1)" srcset="x 1x" width="120" height="40px" alt="Logo">',
      ),
    ).toBe(
      '<b>b</b><a>js</a><a>js2</a><a>data</a><a>rel</a><a>vb</a><img src="https://cdn.example.com/ok.png" width="120" alt="Logo">',
    );
  });

  it('keeps the text of other elements (a table’s cells, font), never comments', () => {
    expect(built('<table><tr><td>Alex</td><td><font color="red">Rivera</font></td></tr></table><!-- note -->')).toBe(
      'AlexRivera',
    );
  });

  it('builds nodes of the live document, none of them script-bearing, and bounds deep nesting', () => {
    const fragment = buildSafeFragment('<div><div><b>x</b></div></div>', document);
    const all = Array.from(fragment.querySelectorAll('*'));
    expect(all.every((node) => node.ownerDocument === document)).toBe(true);
    const deep = '<div>'.repeat(200) + 'deep' + '</div>'.repeat(200);
    const out = built(deep);
    expect(out).not.toContain('deep');
    expect(out.match(/<div>/g)!.length).toBeLessThanOrEqual(24);
  });

  it('does not run or load anything while parsing', () => {
    (window as unknown as { hit?: boolean }).hit = false;
    buildSafeFragment('<img src="https://x.test/a.png" onerror="window.hit = true"><script>window.hit = true</script>');
    expect((window as unknown as { hit?: boolean }).hit).toBe(false);
  });
});
