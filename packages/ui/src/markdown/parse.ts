/**
 * A small Markdown parser (CommonMark's common cases plus GitHub tables, strikethrough and bare links) that
 * builds a tree, never HTML: the renderer turns the tree into React elements, so HTML in the input can only ever
 * be text. Model output is the input, so the parser is forgiving: an unclosed code fence (while an answer streams)
 * is still a code block, and anything it does not understand stays text.
 */

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'strong' | 'em' | 'del'; c: Inline[] }
  | { t: 'link'; href: string; c: Inline[] }
  | { t: 'image'; src: string; alt: string }
  | { t: 'cite'; n: number }
  | { t: 'br' };

export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { t: 'p'; c: Inline[] }
  | { t: 'h'; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: 'code'; lang: string; v: string }
  | { t: 'quote'; c: Block[] }
  | { t: 'list'; ordered: boolean; start: number; tight: boolean; items: Block[][] }
  | { t: 'hr' }
  | { t: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] };

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>[ \t]?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const TABLE_SEPARATOR = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const blank = (line: string) => line.trim() === '';

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i += 1) {
    if (row[i] === '\\' && row[i + 1] === '|') {
      cell += '|';
      i += 1;
    } else if (row[i] === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += row[i];
  }
  cells.push(cell.trim());
  return cells;
}

const startsTable = (lines: string[], i: number) =>
  (lines[i] ?? '').includes('|') && TABLE_SEPARATOR.test(lines[i + 1] ?? '') && (lines[i + 1] ?? '').includes('-');

/** A line that ends a paragraph without a blank line before it. */
function interrupts(line: string) {
  if (FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line)) return true;
  const item = LIST_ITEM.exec(line);
  // An ordered list interrupts a paragraph only when it starts at 1 (as in CommonMark).
  return Boolean(item && item[3] && (!/\d/.test(item[2]!) || item[2]!.startsWith('1')));
}

export function parseMarkdown(text: string): Block[] {
  return parseBlocks(text.replace(/\r\n?/g, '\n').split('\n'), 0);
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i += 1;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent = '', marker = '```', lang = ''] = fence;
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !close.test(lines[i]!)) {
        const l = lines[i]!;
        body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
        i += 1;
      }
      i += 1; // the closing fence (or the end of the text while an answer is still streaming)
      blocks.push({ t: 'code', lang: lang.toLowerCase(), v: body.join('\n') });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({
        t: 'h',
        level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6,
        c: parseInline(heading[2] ?? ''),
      });
      i += 1;
      continue;
    }

    if (HR.test(line)) {
      blocks.push({ t: 'hr' });
      i += 1;
      continue;
    }

    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !blank(lines[i]!) && (QUOTE.test(lines[i]!) || !interrupts(lines[i]!))) {
        inner.push(lines[i]!.replace(QUOTE, ''));
        i += 1;
      }
      blocks.push({
        t: 'quote',
        c: depth > 20 ? [{ t: 'p', c: parseInline(inner.join('\n')) }] : parseBlocks(inner, depth + 1),
      });
      continue;
    }

    const item = LIST_ITEM.exec(line);
    if (item) {
      const { block, next } = parseList(lines, i, depth);
      blocks.push(block);
      i = next;
      continue;
    }

    if (startsTable(lines, i)) {
      const head = splitRow(line);
      const align: Align[] = splitRow(lines[i + 1]!).map((cell) => {
        const left = cell.startsWith(':');
        const right = cell.endsWith(':');
        return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
      });
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && !blank(lines[i]!) && lines[i]!.includes('|')) {
        const cells = splitRow(lines[i]!);
        rows.push(head.map((_, n) => parseInline(cells[n] ?? '')));
        i += 1;
      }
      blocks.push({
        t: 'table',
        align: head.map((_, n) => align[n] ?? null),
        head: head.map((h) => parseInline(h)),
        rows,
      });
      continue;
    }

    const para: string[] = [line.trim()];
    i += 1;
    while (i < lines.length && !blank(lines[i]!) && !interrupts(lines[i]!) && !startsTable(lines, i)) {
      para.push(lines[i]!.trim());
      i += 1;
    }
    blocks.push({ t: 'p', c: parseInline(para.join('\n')) });
  }
  return blocks;
}

function parseList(lines: string[], start: number, depth: number): { block: Block; next: number } {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const bullet = ordered ? first[2]!.slice(-1) : first[2]!;
  const items: string[][] = [];
  let tight = true;
  let i = start;
  let contentIndent = 0;
  let sawBlank = false;

  while (i < lines.length) {
    const line = lines[i]!;
    const item = LIST_ITEM.exec(line);
    const sameList = item && (ordered ? /\d/.test(item[2]!) && item[2]!.endsWith(bullet) : item[2] === bullet);
    const indent = line.length - line.trimStart().length;
    if (item && sameList && indent < Math.max(contentIndent, 1) + (items.length ? 0 : 4)) {
      if (sawBlank && items.length) tight = false;
      sawBlank = false;
      contentIndent = item[0].length + (item[3] === '' ? 1 : 0);
      items.push([line.slice(item[0].length)]);
      i += 1;
      continue;
    }
    if (blank(line)) {
      sawBlank = true;
      items[items.length - 1]!.push('');
      i += 1;
      continue;
    }
    if (indent >= contentIndent) {
      if (sawBlank) tight = false;
      sawBlank = false;
      items[items.length - 1]!.push(line.slice(contentIndent));
      i += 1;
      continue;
    }
    // A lazy continuation line of the item's paragraph.
    if (!sawBlank && !interrupts(line)) {
      items[items.length - 1]!.push(line.trim());
      i += 1;
      continue;
    }
    break;
  }
  // Blank lines after the last item belong to what follows.
  const parsed = items.map((content) => {
    while (content.length && blank(content[content.length - 1]!)) content.pop();
    return depth > 20 ? [{ t: 'p' as const, c: parseInline(content.join('\n')) }] : parseBlocks(content, depth + 1);
  });
  return {
    block: { t: 'list', ordered, start: ordered ? parseInt(first[2]!, 10) : 1, tight, items: parsed },
    next: i,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Inline content

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;

/** `[label](destination "title")` starting at `start` (the `[`), or null. */
function linkLike(s: string, start: number): { label: string; dest: string; end: number } | null {
  let depth = 0;
  let j = start;
  for (; j < s.length; j += 1) {
    const c = s[j];
    if (c === '\\') j += 1;
    else if (c === '[') depth += 1;
    else if (c === ']') {
      depth -= 1;
      if (depth === 0) break;
    } else if (c === '\n' && s[j + 1] === '\n') return null;
  }
  if (depth !== 0 || s[j + 1] !== '(') return null;
  const label = s.slice(start + 1, j);
  let k = j + 2;
  while (s[k] === ' ') k += 1;
  let dest = '';
  if (s[k] === '<') {
    const close = s.indexOf('>', k);
    if (close < 0) return null;
    dest = s.slice(k + 1, close);
    k = close + 1;
  } else {
    let parens = 0;
    for (; k < s.length; k += 1) {
      const c = s[k]!;
      if (c === '\\' && k + 1 < s.length) {
        dest += s[k + 1];
        k += 1;
        continue;
      }
      if (/\s/.test(c)) break;
      if (c === '(') parens += 1;
      if (c === ')') {
        if (parens === 0) break;
        parens -= 1;
      }
      dest += c;
    }
  }
  while (s[k] === ' ' || s[k] === '\n') k += 1;
  const quote = s[k];
  if (quote === '"' || quote === "'") {
    const close = s.indexOf(quote, k + 1);
    if (close < 0) return null;
    k = close + 1;
    while (s[k] === ' ') k += 1;
  }
  if (s[k] !== ')') return null;
  return { label, dest, end: k + 1 };
}

/** Plain text of inline nodes (for image alt text). */
export function plainText(nodes: Inline[]): string {
  return nodes
    .map((n) => {
      switch (n.t) {
        case 'text':
        case 'code':
          return n.v;
        case 'br':
          return ' ';
        case 'cite':
          return `[${n.n}]`;
        case 'image':
          return n.alt;
        default:
          return plainText(n.c);
      }
    })
    .join('');
}

/** A bare URL: drops trailing punctuation, and a closing parenthesis that has no opening one in the URL. */
function trimBareUrl(url: string): string {
  let out = url.replace(/[.,;:!?'"*_~]+$/, '');
  while (out.endsWith(')') && (out.match(/\(/g) ?? []).length < (out.match(/\)/g) ?? []).length) {
    out = out.slice(0, -1).replace(/[.,;:!?'"*_~]+$/, '');
  }
  return out;
}

export function parseInline(s: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let buf = '';
  const flush = () => {
    if (buf) out.push({ t: 'text', v: buf });
    buf = '';
  };
  const inner = (text: string) => (depth > 20 ? [{ t: 'text' as const, v: text }] : parseInline(text, depth + 1));
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;

    if (c === '\\' && i + 1 < s.length && PUNCTUATION.test(s[i + 1]!)) {
      buf += s[i + 1];
      i += 2;
      continue;
    }
    if (c === '\n') {
      flush();
      out.push({ t: 'br' });
      i += 1;
      continue;
    }
    if (c === '`') {
      let n = 1;
      while (s[i + n] === '`') n += 1;
      const ticks = '`'.repeat(n);
      let close = s.indexOf(ticks, i + n);
      while (close >= 0 && (s[close + n] === '`' || s[close - 1] === '`')) {
        let end = close;
        while (s[end] === '`') end += 1;
        close = s.indexOf(ticks, end);
      }
      if (close >= 0) {
        flush();
        let code = s.slice(i + n, close).replace(/\n/g, ' ');
        if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
        out.push({ t: 'code', v: code });
        i = close + n;
      } else {
        buf += ticks;
        i += n;
      }
      continue;
    }
    if (c === '!' && s[i + 1] === '[') {
      const link = linkLike(s, i + 1);
      if (link) {
        flush();
        out.push({ t: 'image', src: link.dest, alt: plainText(inner(link.label)) });
        i = link.end;
        continue;
      }
    }
    if (c === '[') {
      const link = linkLike(s, i);
      if (link) {
        flush();
        out.push({ t: 'link', href: link.dest, c: inner(link.label) });
        i = link.end;
        continue;
      }
      const cite = /^\[(\d{1,3})\]/.exec(s.slice(i, i + 5));
      if (cite) {
        flush();
        out.push({ t: 'cite', n: Number(cite[1]) });
        i += cite[0].length;
        continue;
      }
    }
    if (c === '<') {
      const auto = /^<((?:https?|mailto):[^\s<>]+)>/i.exec(s.slice(i, i + 2100));
      if (auto) {
        flush();
        out.push({ t: 'link', href: auto[1]!, c: [{ t: 'text', v: auto[1]! }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((c === 'h' || c === 'H' || c === 'w' || c === 'W') && (i === 0 || /[\s(*_~]/.test(s[i - 1]!))) {
      const bare = /^(?:https?:\/\/|www\.)[^\s<>]+/i.exec(s.slice(i, i + 2100));
      if (bare) {
        const url = trimBareUrl(bare[0]);
        if (url.length > 4 && !/^www\.$/i.test(url)) {
          flush();
          out.push({ t: 'link', href: /^www\./i.test(url) ? `https://${url}` : url, c: [{ t: 'text', v: url }] });
          i += url.length;
          continue;
        }
      }
    }
    if (c === '*' || c === '_' || c === '~') {
      let n = 1;
      while (s[i + n] === c) n += 1;
      const opensWord = i + n < s.length && !/\s/.test(s[i + n]!);
      const intraword = c === '_' && i > 0 && WORD.test(s[i - 1]!);
      const k = c === '~' ? 2 : Math.min(n, 3);
      if (opensWord && !intraword && (c !== '~' || n === 2)) {
        const delim = c.repeat(k);
        let j = i + k;
        let found = -1;
        while (j < s.length) {
          const at = s.indexOf(delim, j);
          if (at < 0) break;
          let run = 0;
          while (s[at + run] === c) run += 1;
          const closesWord = !/\s/.test(s[at - 1] ?? ' ');
          const okAfter = c !== '_' || !WORD.test(s[at + run] ?? '');
          // `*a **b** c*`: a single-character emphasis does not close on a double run.
          const fits = k === 1 ? run !== 2 : run >= k;
          if (closesWord && okAfter && at > i + k && fits) {
            found = at;
            break;
          }
          j = at + run;
        }
        if (found > 0) {
          flush();
          const content = inner(s.slice(i + k, found));
          if (c === '~') out.push({ t: 'del', c: content });
          else if (k === 1) out.push({ t: 'em', c: content });
          else if (k === 2) out.push({ t: 'strong', c: content });
          else out.push({ t: 'strong', c: [{ t: 'em', c: content }] });
          i = found + k;
          continue;
        }
      }
      buf += c.repeat(n);
      i += n;
      continue;
    }
    buf += c;
    i += 1;
  }
  flush();
  return out;
}
