import { useMemo, useState, type ReactNode } from 'react';
import { cn } from '../cn.js';
import { focusRing } from '../button.js';
import { ImageIcon } from '../action-icons.js';
import { parseMarkdown, type Block, type Inline } from './parse.js';

export { parseMarkdown };

export type MarkdownLabels = {
  /** The button that stands in for a remote image, e.g. 'Load image from example.com'. */
  loadImage: (host: string) => string;
};

export type MarkdownProps = {
  text: string;
  labels: MarkdownLabels;
  /** Renders a fenced code block (e.g. with highlighting and a copy button); a plain <pre> otherwise. */
  renderCode?: (code: string, language: string) => ReactNode;
  /** The address of numbered source `n`, so `[n]` in the text links to it. */
  citation?: (n: number) => string | undefined;
  className?: string;
};

const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'];
const IMAGE_PROTOCOLS = ['http:', 'https:'];

/**
 * The normalized address when it is absolute and uses an allowed protocol, else null. The URL parser drops the
 * tabs, newlines and control characters a browser would ignore, so `java\tscript:` is caught too; relative
 * addresses are refused (they would point into this app).
 */
export function safeUrl(raw: string, protocols: readonly string[] = LINK_PROTOCOLS): string | null {
  const trimmed = raw.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(trimmed);
    return protocols.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const linkClass =
  'font-medium text-blue-600 underline decoration-blue-300 underline-offset-2 hover:decoration-blue-600 dark:text-blue-400 dark:decoration-blue-700';

/** A remote image is never requested until the reader asks for it (it would tell its host who reads what). */
function RemoteImage({ src, alt, label }: { src: string; alt: string; label: string }) {
  const [load, setLoad] = useState(false);
  if (load) {
    return (
      <img
        src={src}
        alt={alt}
        referrerPolicy="no-referrer"
        className="my-1 inline-block max-h-96 max-w-full rounded-md border border-zinc-200 dark:border-zinc-700"
      />
    );
  }
  return (
    <button
      type="button"
      onClick={() => setLoad(true)}
      className={cn(
        'my-1 inline-flex max-w-full items-center gap-2 rounded-md border border-dashed border-zinc-300 px-3 py-1.5 text-left text-xs text-zinc-600 hover:bg-zinc-50 dark:border-zinc-600 dark:text-zinc-300 dark:hover:bg-zinc-800',
        focusRing,
      )}
    >
      <ImageIcon className="shrink-0" />
      <span className="min-w-0 break-words">
        {label}
        {alt && <span className="text-zinc-400"> — {alt}</span>}
      </span>
    </button>
  );
}

type Context = Omit<MarkdownProps, 'text' | 'className'>;

function renderInline(nodes: Inline[], ctx: Context, inLink = false): ReactNode[] {
  return nodes.map((node, key) => {
    switch (node.t) {
      case 'text':
        return node.v;
      case 'br':
        return <br key={key} />;
      case 'code':
        return (
          <code
            key={key}
            className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.875em] text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100"
          >
            {node.v}
          </code>
        );
      case 'strong':
        return (
          <strong key={key} className="font-semibold">
            {renderInline(node.c, ctx, inLink)}
          </strong>
        );
      case 'em':
        return <em key={key}>{renderInline(node.c, ctx, inLink)}</em>;
      case 'del':
        return <del key={key}>{renderInline(node.c, ctx, inLink)}</del>;
      case 'link': {
        const href = inLink ? null : safeUrl(node.href);
        // Not an allowed address (javascript:, data:, relative…): the words stay, as plain text.
        if (!href) return <span key={key}>{renderInline(node.c, ctx, true)}</span>;
        return (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className={linkClass}>
            {renderInline(node.c, ctx, true)}
          </a>
        );
      }
      case 'image': {
        const src = inLink ? null : safeUrl(node.src, IMAGE_PROTOCOLS);
        if (!src) return <span key={key}>{node.alt}</span>;
        return <RemoteImage key={key} src={src} alt={node.alt} label={ctx.labels.loadImage(new URL(src).host)} />;
      }
      case 'cite': {
        const target = inLink ? undefined : ctx.citation?.(node.n);
        const href = target ? safeUrl(target, IMAGE_PROTOCOLS) : null;
        if (!href) return `[${node.n}]`;
        return (
          <sup key={key}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="rounded px-0.5 text-[0.75em] font-semibold text-blue-600 no-underline hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-blue-500/10"
            >
              [{node.n}]
            </a>
          </sup>
        );
      }
    }
  });
}

const headingClass: Record<number, string> = {
  1: 'text-xl font-semibold',
  2: 'text-lg font-semibold',
  3: 'text-base font-semibold',
  4: 'font-semibold',
  5: 'font-semibold',
  6: 'font-semibold text-zinc-600 dark:text-zinc-300',
};

function renderBlocks(blocks: Block[], ctx: Context, tight = false): ReactNode[] {
  return blocks.map((block, key) => {
    switch (block.t) {
      case 'p':
        return tight ? (
          <span key={key} className="block">
            {renderInline(block.c, ctx)}
          </span>
        ) : (
          <p key={key}>{renderInline(block.c, ctx)}</p>
        );
      case 'h': {
        const Tag = `h${Math.min(block.level + 2, 6)}` as 'h3';
        return (
          <Tag key={key} className={cn('mt-2 text-zinc-900 dark:text-zinc-50', headingClass[block.level])}>
            {renderInline(block.c, ctx)}
          </Tag>
        );
      }
      case 'code':
        return ctx.renderCode ? (
          <div key={key}>{ctx.renderCode(block.v, block.lang)}</div>
        ) : (
          <pre key={key} className="overflow-x-auto rounded-lg bg-zinc-900 p-3 text-sm text-zinc-100">
            <code>{block.v}</code>
          </pre>
        );
      case 'quote':
        return (
          <blockquote
            key={key}
            className="space-y-2 border-l-4 border-zinc-300 pl-3 text-zinc-600 dark:border-zinc-600 dark:text-zinc-300"
          >
            {renderBlocks(block.c, ctx)}
          </blockquote>
        );
      case 'list': {
        const items = block.items.map((item, n) => (
          <li key={n} className={cn('pl-1', !block.tight && 'space-y-2')}>
            {renderBlocks(item, ctx, block.tight)}
          </li>
        ));
        return block.ordered ? (
          <ol key={key} start={block.start} className="list-decimal space-y-1 pl-6 marker:text-zinc-500">
            {items}
          </ol>
        ) : (
          <ul key={key} className="list-disc space-y-1 pl-6 marker:text-zinc-400">
            {items}
          </ul>
        );
      }
      case 'hr':
        return <hr key={key} className="border-zinc-200 dark:border-zinc-700" />;
      case 'table':
        return (
          <div key={key} className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-700">
            <table className="w-full border-collapse text-sm">
              <thead className="bg-zinc-50 dark:bg-zinc-800/60">
                <tr>
                  {block.head.map((cell, n) => (
                    <th
                      key={n}
                      style={{ textAlign: block.align[n] ?? 'left' }}
                      className="border-b border-zinc-200 px-3 py-2 font-semibold dark:border-zinc-700"
                    >
                      {renderInline(cell, ctx)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {block.rows.map((row, r) => (
                  <tr key={r} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
                    {row.map((cell, n) => (
                      <td key={n} style={{ textAlign: block.align[n] ?? 'left' }} className="px-3 py-2 align-top">
                        {renderInline(cell, ctx)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
    }
  });
}

/**
 * Markdown as React elements, never as HTML: raw HTML in the text shows as text, links open only http(s) and
 * mailto addresses (in a new tab, without referrer or opener), and remote images wait for a click.
 */
export function Markdown({ text, className, ...ctx }: MarkdownProps) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className={cn('space-y-3 break-words leading-relaxed', className)}>{renderBlocks(blocks, ctx)}</div>;
}
