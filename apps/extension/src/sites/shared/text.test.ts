// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { capText, normalizeText, visibleText } from './text.js';

describe('visible text', () => {
  it('keeps one line per block, drops hidden and screen-reader-only text, collapses whitespace', () => {
    document.body.innerHTML = `<div id="r"><p>Hello   <b>there</b>\n friend</p><div hidden>secret</div>
      <span style="display:none">gone</span><span class="visually-hidden">dup</span><span aria-hidden="true">shown</span>
      <script>var x = 1</script><div>a<br>b</div><button>Send</button></div>`;
    expect(visibleText(document.getElementById('r'))).toBe('Hello there friend\nshown\na\nb');
  });

  it('skips subtrees by selector', () => {
    document.body.innerHTML = `<div id="r"><p>keep</p><blockquote class="q">quoted</blockquote></div>`;
    expect(visibleText(document.getElementById('r'), { skip: '.q' })).toBe('keep');
  });

  it('normalizes and caps', () => {
    expect(normalizeText(' a \u00a0 b\u200b \n\n\n\n c ')).toBe('a b\n\nc');
    const long = 'word '.repeat(5000);
    const capped = capText(long, 1000);
    expect(capped.length).toBeLessThanOrEqual(1000);
    expect(capped.endsWith('…')).toBe(true);
  });
});
