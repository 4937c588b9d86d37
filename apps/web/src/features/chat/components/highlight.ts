// Loaded on demand by CodeBlock (never in the page's first chunk): highlight.js core and the languages people paste
// most, with a dark theme.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import 'highlight.js/styles/github-dark.css';
import { createElement, type ReactNode } from 'react';

const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  sql,
  swift,
  typescript,
  xml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerLanguage('yaml', yaml);
hljs.registerAliases(['sh', 'zsh', 'shell', 'console'], { languageName: 'bash' });
hljs.registerAliases(['html', 'svg', 'vue'], { languageName: 'xml' });

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name]!);

type Node = { className: string; children: (Node | string)[] };

/**
 * highlight.js answers HTML in which the code is escaped and the only tags are `<span class="hljs-…">`. That
 * HTML is read into React elements here (no innerHTML): spans with a plain class name become elements,
 * everything else is text.
 */
export function toElements(html: string): ReactNode[] {
  const root: Node = { className: '', children: [] };
  const stack: Node[] = [root];
  const pattern = /<span class="([\w\- ]{1,80})">|<\/span>/g;
  let last = 0;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    if (match.index > last) stack[stack.length - 1]!.children.push(decode(html.slice(last, match.index)));
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      const node: Node = { className: match[1], children: [] };
      stack[stack.length - 1]!.children.push(node);
      stack.push(node);
    } else if (stack.length > 1) stack.pop();
  }
  if (last < html.length) stack[stack.length - 1]!.children.push(decode(html.slice(last)));
  const render = (nodes: (Node | string)[]): ReactNode[] =>
    nodes.map((n, i) =>
      typeof n === 'string' ? n : createElement('span', { key: i, className: n.className }, render(n.children)),
    );
  return render(root.children);
}

/** The highlighted code as React elements, or null for a language it does not know (the block stays plain). */
export function highlight(code: string, language: string): ReactNode[] | null {
  const known = language && hljs.getLanguage(language) ? language : null;
  if (!known) return null;
  return toElements(hljs.highlight(code, { language: known, ignoreIllegals: true }).value);
}
