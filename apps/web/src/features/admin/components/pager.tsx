import { useTranslation } from 'react-i18next';
import { formatNumber } from '@parley/i18n';
import { Button } from '@parley/ui';

/** Previous / next and where we are: "Page 2 of 5 · 93 people". */
export function Pager({
  page,
  pageSize,
  total,
  countLabel,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** The total, in words ("93 people"). */
  countLabel: string;
  onPage: (page: number) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label={t('pager.label')} className="flex flex-wrap items-center justify-between gap-3 pt-2">
      <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {t('pager.position', {
          page: formatNumber(Math.min(page, pages), i18n.language),
          pages: formatNumber(pages, i18n.language),
        })}{' '}
        · {countLabel}
      </p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          className="disabled:opacity-50"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          {t('pager.previous')}
        </Button>
        <Button
          variant="secondary"
          className="disabled:opacity-50"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t('pager.next')}
        </Button>
      </div>
    </nav>
  );
}
