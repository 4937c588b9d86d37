import { describe, expect, it } from 'vitest';
import { cleanSignatureHtml, isBlankHtml, linkFromInput, previewDocument, safeHref } from './signature-html';

describe('cleanSignatureHtml', () => {
  it('keeps simple formatting, lists, safe links and https images', () => {
    const html =
      '<p><b>Ada</b> <i>Lovelace</i> <u>CEO</u> <s>old</s><br><strong>s</strong><em>e</em></p>' +
      '<div><span>x</span></div><ul><li>a</li></ul><ol><li>b</li></ol>' +
      '<a href="https://ada.example.com/" target="_blank" rel="noopener noreferrer">site</a>' +
      '<a href="mailto:ada@example.com" target="_blank" rel="noopener noreferrer">mail</a>' +
      '<a href="tel:+15551234" title="Call" target="_blank" rel="noopener noreferrer">tel</a>' +
      '<img src="https://cdn.example.com/logo.png" alt="Logo" width="120" height="40">';
    expect(cleanSignatureHtml(html)).toBe(html);
  });

  it('drops scripts, handlers, styles, frames, javascript: links and non-https images', () => {
    const hostile =
      '<img src=x onerror=alert(1)><script>alert(2)</script><b onclick="alert(3)" style="color:red">Bold</b>' +
      '<a href="javascript:alert(4)">bad</a><a href=" JaVaScRiPt:alert(5)">bad2</a><a href="/relative">rel</a>' +
      '<iframe src="https://evil.example"></iframe><svg><script>alert(6)</script></svg><style>*{}</style>' +
      '<img src="http://insecure.example/a.png"><img src="data:image/png;base64,AAAA"><object data="x"></object>' +
      '<form action="https://evil.example"><input value="x"><button>go</button></form>' +
      '<table><tr><td>cell</td></tr></table><h1>Head</h1><p title="t" class="c" id="i">para</p>';
    const clean = cleanSignatureHtml(hostile);
    const link = 'target="_blank" rel="noopener noreferrer"';
    expect(clean).toBe(`<b>Bold</b><a ${link}>bad</a><a ${link}>bad2</a><a ${link}>rel</a>cellHead<p>para</p>`);
    expect(clean).not.toMatch(/onerror|onclick|script|javascript|style|iframe|svg/i);
  });

  it('keeps text as text', () => {
    expect(cleanSignatureHtml('1 < 2 & "quotes" &lt;b&gt;')).toBe('1 &lt; 2 &amp; "quotes" &lt;b&gt;');
  });

  it('links open in a new tab without the opener, whatever they said', () => {
    expect(cleanSignatureHtml('<a href="https://a.example" target="_top" rel="opener">a</a>')).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">a</a>',
    );
  });

  it('knows an empty signature', () => {
    expect(isBlankHtml('<p> </p><br>')).toBe(true);
    expect(isBlankHtml('<img src="https://cdn.example.com/a.png">')).toBe(false);
    expect(isBlankHtml('<b>x</b>')).toBe(false);
  });
});

describe('links', () => {
  it('accepts http(s), mailto and tel only, as written', () => {
    expect(safeHref(' https://a.example ')).toBe('https://a.example');
    expect(safeHref('//a.example/x')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,hi')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
  });

  it('reads what a person types in the link box', () => {
    expect(linkFromInput('ada.example.com')).toBe('https://ada.example.com');
    expect(linkFromInput('ada@example.com')).toBe('mailto:ada@example.com');
    expect(linkFromInput('tel:+15551234')).toBe('tel:+15551234');
    expect(linkFromInput('https://ada.example.com/about')).toBe('https://ada.example.com/about');
    expect(linkFromInput('javascript:alert(1)')).toBeNull();
    expect(linkFromInput('not a link')).toBeNull();
  });
});

describe('previewDocument', () => {
  it('allows no script by its own policy and escapes the sample words', () => {
    const doc = previewDocument('<b>Ada</b>', { lang: 'en', greeting: 'Hi <Sam>,', body: 'Thanks & bye' });
    expect(doc).toContain("default-src 'none'");
    expect(doc).toContain('Hi &lt;Sam&gt;,');
    expect(doc).toContain('Thanks &amp; bye');
    expect(doc).toContain('<div class="sig"><b>Ada</b></div>');
  });
});
