/// <reference types="@testing-library/jest-dom/vitest" />
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Markdown, safeUrl } from './markdown.js';
import { parseMarkdown } from './parse.js';

const labels = { loadImage: (host: string) => `Load image from ${host}` };
const show = (text: string, extra: Partial<Parameters<typeof Markdown>[0]> = {}) =>
  render(<Markdown text={text} labels={labels} {...extra} />);

describe('Markdown renderer: hostile input', () => {
  it('shows HTML as text and never creates script or img elements', () => {
    const { container } = show(
      'Hi <script>window.__pwned=1</script> and <img src=x onerror="window.__pwned=2"> <b>bold?</b>\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(container.querySelector('script, img, iframe, b')).toBeNull();
    expect(container.textContent).toContain('<script>window.__pwned=1</script>');
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned=2">');
    expect(container.querySelectorAll('[onerror], [src]')).toHaveLength(0);
  });

  it('renders javascript:, data: and relative links as plain text', () => {
    const { container } = show(
      '[one](javascript:window.__pwned=3) [two](JaVaScRiPt:alert(1)) [three](java\tscript:alert(1)) [four](data:text/html,<script>alert(1)</script>) [five](/home) [six](vbscript:msgbox)',
    );
    expect(container.querySelector('a')).toBeNull();
    for (const word of ['one', 'two', 'three', 'four', 'five', 'six']) expect(container.textContent).toContain(word);
  });

  it('opens safe links in a new tab without opener or referrer', () => {
    show('[docs](https://example.com/a?b=1) and <mailto:ada@example.com> and https://bare.example/path.');
    const docs = screen.getByRole('link', { name: 'docs' });
    expect(docs).toHaveAttribute('href', 'https://example.com/a?b=1');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(screen.getByRole('link', { name: 'mailto:ada@example.com' })).toHaveAttribute(
      'href',
      'mailto:ada@example.com',
    );
    // The full stop after a bare link is not part of it.
    expect(screen.getByRole('link', { name: 'https://bare.example/path' })).toHaveAttribute(
      'href',
      'https://bare.example/path',
    );
  });

  it('does not request a remote image until it is clicked', async () => {
    const { container } = show('Look: ![a cat](http://127.0.0.1:9/evil.png)');
    expect(container.querySelector('img')).toBeNull();
    const button = screen.getByRole('button', { name: /Load image from 127\.0\.0\.1:9/ });
    await userEvent.click(button);
    const img = container.querySelector('img');
    expect(img).toHaveAttribute('src', 'http://127.0.0.1:9/evil.png');
    expect(img).toHaveAttribute('alt', 'a cat');
    expect(img).toHaveAttribute('referrerpolicy', 'no-referrer');
  });

  it('never loads data: or javascript: images, even on click', () => {
    const { container } = show('![pixel](data:image/png;base64,AAAA) ![x](javascript:alert(1))');
    expect(container.querySelector('img, button')).toBeNull();
    expect(container.textContent).toContain('pixel');
  });

  it('keeps code as text', () => {
    const { container } = show('`<script>alert(1)</script>`\n\n```html\n<img src=x onerror=alert(1)>\n```');
    expect(container.querySelector('script, img')).toBeNull();
    expect(container.querySelector('pre code')?.textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('safeUrl allows only absolute http(s) and mailto by default', () => {
    expect(safeUrl('https://a.example')).toBe('https://a.example/');
    expect(safeUrl(' javascript:alert(1)')).toBeNull();
    expect(safeUrl('\u0001javascript:alert(1)')).toBeNull();
    expect(safeUrl('//evil.example')).toBeNull();
    expect(safeUrl('mailto:a@b.c', ['http:', 'https:'])).toBeNull();
  });
});

describe('Markdown renderer: formatting', () => {
  it('renders headings, emphasis, lists, quotes, tables and code', () => {
    const { container } = show(
      [
        '# Title',
        'Some **bold**, *italic*, ~~gone~~ and `code`; snake_case_name stays.',
        '',
        '- one',
        '- two',
        '  - nested',
        '',
        '3. three',
        '4. four',
        '',
        '> quoted',
        '',
        '| a | b |',
        '|:--|--:|',
        '| 1 | 2 |',
        '',
        '```js',
        'const x = 1;',
        '```',
      ].join('\n'),
    );
    expect(screen.getByRole('heading', { name: 'Title' })).toBeInTheDocument();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('italic');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    expect(container.textContent).toContain('snake_case_name');
    expect(container.querySelectorAll('ul li')).toHaveLength(3);
    expect(container.querySelector('ol')).toHaveAttribute('start', '3');
    expect(container.querySelector('blockquote')?.textContent).toBe('quoted');
    expect(container.querySelector('td:last-child')).toHaveStyle({ textAlign: 'right' });
    expect(container.querySelector('pre code')?.textContent).toBe('const x = 1;');
  });

  it('passes code blocks with their language to renderCode', () => {
    show('```Python\nprint(1)\n```', { renderCode: (code, lang) => <output>{`${lang}:${code}`}</output> });
    expect(screen.getByText('python:print(1)')).toBeInTheDocument();
  });

  it('treats an unclosed fence (a streaming answer) as code', () => {
    expect(parseMarkdown('Here:\n```ts\nlet a')).toEqual([
      { t: 'p', c: [{ t: 'text', v: 'Here:' }] },
      { t: 'code', lang: 'ts', v: 'let a' },
    ]);
  });

  it('links numbered citations to their sources', () => {
    show('According to [1] and [7].', { citation: (n) => (n === 1 ? 'https://source.example/1' : undefined) });
    expect(screen.getByRole('link', { name: '[1]' })).toHaveAttribute('href', 'https://source.example/1');
    expect(screen.getByText(/and \[7\]/)).toBeInTheDocument();
  });

  it('survives deeply nested and pathological input', () => {
    const deep = '>'.repeat(200) + ' deep\n' + '*'.repeat(5000) + '[](' + '('.repeat(3000);
    expect(() => show(deep)).not.toThrow();
  });
});
