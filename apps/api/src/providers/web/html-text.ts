/** Turns a DOM subtree into plain text: one paragraph per block, list items and table rows on their own lines. */

const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'HEAD',
  'SELECT',
  'BUTTON',
]);
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DETAILS',
  'DIV',
  'DL',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'UL',
]);
/** Blocks that read as lines of one list rather than separate paragraphs. */
const LINES = new Set(['LI', 'DT', 'DD', 'TR']);

type Block = { text: string; line: boolean };

function cleanLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/^ +| +$/g, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

class TextCollector {
  readonly blocks: Block[] = [];
  private current = '';
  private prefix = '';
  private line = false;

  text(value: string, preformatted: boolean) {
    this.current += preformatted ? value : value.replace(/[\s\u00a0]+/g, ' ');
  }

  breakLine() {
    this.current += '\n';
  }

  /** Ends the pending block; `prefix` and `nextIsLine` describe the block that starts now. */
  flush(nextIsLine = false, prefix = '') {
    const text = cleanLines(this.current);
    this.current = '';
    if (text) {
      this.blocks.push({ text: this.prefix + text, line: this.line });
      this.line = nextIsLine;
      this.prefix = prefix;
    } else {
      // An empty wrapper (a <p> inside an <li>) must not lose the list marker.
      this.line ||= nextIsLine;
      this.prefix ||= prefix;
    }
  }

  toString(): string {
    return this.blocks
      .map((b, i) => (i === 0 ? '' : b.line && this.blocks[i - 1]!.line ? '\n' : '\n\n') + b.text)
      .join('');
  }
}

function listMarker(item: Element): string {
  if (item.parentElement?.nodeName.toUpperCase() !== 'OL') return '- ';
  let n = 1;
  for (let s = item.previousElementSibling; s; s = s.previousElementSibling) if (s.nodeName.toUpperCase() === 'LI') n++;
  return `${n}. `;
}

function walk(node: Node, out: TextCollector, preformatted: boolean) {
  if (node.nodeType === 3) return out.text(node.nodeValue ?? '', preformatted);
  if (node.nodeType !== 1) return;
  const element = node as Element;
  const tag = element.nodeName.toUpperCase();
  if (SKIPPED.has(tag) || element.hasAttribute('hidden')) return;
  if (tag === 'BR') return out.breakLine();
  const isLine = LINES.has(tag);
  const block = isLine || BLOCKS.has(tag);
  if (block) out.flush(isLine, tag === 'LI' ? listMarker(element) : '');
  if ((tag === 'TD' || tag === 'TH') && element.previousElementSibling) out.text(' | ', true);
  for (const child of Array.from(element.childNodes)) walk(child, out, preformatted || tag === 'PRE');
  if (block) out.flush();
}

export function htmlToText(root: Node): string {
  const out = new TextCollector();
  walk(root, out, false);
  out.flush();
  return out.toString();
}
