import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon } from '@parley/ui/action-icons';
import { cn, focusRing } from '@parley/ui';
import { useCopy } from '@parley/ui/chat';

/** A fenced code block: highlighted once the highlighter has loaded (plain text until then), with a copy button. */
export function CodeBlock({ code, language }: { code: string; language: string }) {
  const { t } = useTranslation('chat');
  const { copied, failed, copy } = useCopy();
  const [highlighted, setHighlighted] = useState<{ code: string; nodes: ReactNode[] | null } | null>(null);

  useEffect(() => {
    let live = true;
    void import('./highlight').then(({ highlight }) => {
      if (live) setHighlighted({ code, nodes: highlight(code, language) });
    });
    return () => {
      live = false;
    };
  }, [code, language]);

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-800 bg-[#0d1117] text-sm">
      <div className="flex items-center justify-between border-b border-zinc-800 px-3 py-1 text-xs text-zinc-400">
        <span className="font-mono">{language || t('message.code')}</span>
        <button
          type="button"
          onClick={() => void copy(code)}
          className={cn(
            'inline-flex items-center gap-1 rounded px-1.5 py-1 hover:bg-zinc-800 hover:text-zinc-100',
            focusRing,
          )}
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          <span aria-live="polite">
            {failed ? t('message.copyFailed') : copied ? t('message.copied') : t('message.copyCode')}
          </span>
        </button>
      </div>
      <pre className="overflow-x-auto p-3 leading-relaxed">
        <code className="hljs font-mono text-[0.8125rem] !bg-transparent !p-0 text-[#c9d1d9]">
          {highlighted?.code === code && highlighted.nodes ? highlighted.nodes : code}
        </code>
      </pre>
    </div>
  );
}
