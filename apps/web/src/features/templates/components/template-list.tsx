import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { TEMPLATE_KINDS, type Template, type TemplateKind } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, buttonClasses, Card, SelectField, SkeletonBar, TextField, cn, focusRing } from '@parley/ui';
import { PlusIcon, TrashIcon } from '@parley/ui/action-icons';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { ApiError, errorMessage } from '../../../lib/api';
import { useDeleteTemplate, useReorderTemplates, useTemplates } from '../api/templates-api';
import { matches } from '../lib/search';
import { TEMPLATE_PATHS } from '../paths';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TemplateIcon } from './icons';
import { Badge, KIND_TONES, TemplatesSection } from './section';
import { TransferPanel } from './transfer-panel';

type Control = 'handle' | 'up' | 'down';

/** The list with one template moved to `to` (its index once moved). */
function moved(list: Template[], from: number, to: number): Template[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

const iconButton = cn(
  'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  focusRing,
);

function EmptyState({ title, body, children }: { title: string; body?: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
      <TemplateIcon className="h-8 w-8 text-zinc-400" />
      <p className="font-medium text-zinc-900 dark:text-zinc-50">{title}</p>
      {body && <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{body}</p>}
      {children}
    </div>
  );
}

/**
 * /template (spec §2): the person's templates in their order, searched by title or text and filtered by kind.
 * The order changes by dragging a row, by its Move up / Move down buttons, or with Alt+Up / Alt+Down; each move is
 * announced and saved at once (the whole order). Delete after a confirmation; export and import at the bottom.
 */
export function TemplateList() {
  const { t, i18n } = useTranslation('templates');
  const id = useId();
  const templates = useTemplates();
  const reorder = useReorderTemplates();
  const remove = useDeleteTemplate();
  const [query, setQuery] = useState('');
  const [kind, setKind] = useState<TemplateKind | ''>('');
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropBefore, setDropBefore] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const focusAfter = useRef<{ id: string; index: number; control: Control } | null>(null);
  const rows = useRef(new Map<string, HTMLLIElement>());
  const n = (value: number) => formatNumber(value, i18n.language);

  const all = templates.data ?? [];
  const filtered = query.trim() !== '' || kind !== '';
  const shown = all.filter((tpl) => (kind === '' || tpl.kind === kind) && matches(tpl, query));
  const canReorder = !filtered && all.length > 1;

  // A moved row is a new place in the page: focus goes back to the control that moved it.
  useLayoutEffect(() => {
    const wanted = focusAfter.current;
    // Wait for the render that shows the row in its new place.
    if (!wanted || all[wanted.index]?.id !== wanted.id) return;
    focusAfter.current = null;
    const row = rows.current.get(wanted.id);
    const control =
      row?.querySelector<HTMLElement>(`[data-control="${wanted.control}"]:not([disabled])`) ??
      row?.querySelector<HTMLElement>('[data-control="handle"]');
    control?.focus();
  });

  // Let the announcement be read, then clear it, so the same words are announced again for the next move.
  useEffect(() => {
    if (!announcement) return;
    const timer = setTimeout(() => setAnnouncement(''), 4000);
    return () => clearTimeout(timer);
  }, [announcement]);

  const move = (template: Template, to: number, control: Control = 'handle') => {
    const from = all.findIndex((tpl) => tpl.id === template.id);
    if (from < 0 || to < 0 || to >= all.length || to === from) return;
    focusAfter.current = { id: template.id, index: to, control };
    setAnnouncement(t('list.moved', { title: template.title, position: n(to + 1), total: n(all.length) }));
    reorder.mutate(moved(all, from, to), {
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'REORDER_MISMATCH') {
          toast.info(error.message || t('list.reorderMismatch'));
        } else toast.error(errorMessage(error));
        setAnnouncement(t('list.reorderFailed'));
      },
    });
  };

  const onRowKey = (event: KeyboardEvent, template: Template, index: number) => {
    if (!canReorder || !event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    move(template, event.key === 'ArrowUp' ? index - 1 : index + 1, 'handle');
  };

  const onDragStart = (event: DragEvent, template: Template) => {
    if (!canReorder) return;
    setDragging(template.id);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', template.title);
  };
  const onDragOver = (event: DragEvent<HTMLLIElement>, index: number) => {
    if (!dragging) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const rect = event.currentTarget.getBoundingClientRect();
    setDropBefore(event.clientY < rect.top + rect.height / 2 ? index : index + 1);
  };
  const endDrag = () => {
    setDragging(null);
    setDropBefore(null);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const from = all.findIndex((tpl) => tpl.id === dragging);
    if (from >= 0 && dropBefore !== null) {
      const to = dropBefore > from ? dropBefore - 1 : dropBefore;
      move(all[from]!, to);
    }
    endDrag();
  };

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: (answer) => {
        toast.success(answer.message || t('list.deleted'));
        setAnnouncement(t('list.deletedNamed', { title: deleting.title }));
        setDeleting(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setDeleting(null);
      },
    });
  };

  let list;
  if (templates.isError) {
    list = (
      <Alert tone="error" className="m-4 space-y-2">
        <p>{errorMessage(templates.error)}</p>
        <Button variant="secondary" onClick={() => void templates.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (!templates.data) {
    list = (
      <div className="space-y-3 p-4" aria-busy="true">
        <SkeletonBar className="h-14 w-full" />
        <SkeletonBar className="h-14 w-full" />
        <SkeletonBar className="h-14 w-full" />
      </div>
    );
  } else if (all.length === 0) {
    list = (
      <EmptyState title={t('list.emptyTitle')} body={t('list.emptyBody')}>
        <Link to={TEMPLATE_PATHS.choose} className={buttonClasses('primary', 'mt-2')}>
          <PlusIcon width="1em" height="1em" />
          {t('list.create')}
        </Link>
      </EmptyState>
    );
  } else if (shown.length === 0) {
    list = (
      <EmptyState title={t('list.noMatchTitle')} body={t('list.noMatchBody')}>
        <Button
          variant="secondary"
          className="mt-2"
          onClick={() => {
            setQuery('');
            setKind('');
          }}
        >
          {t('list.clear')}
        </Button>
      </EmptyState>
    );
  } else {
    list = (
      <ol aria-label={t('list.label')} className="divide-y divide-zinc-100 dark:divide-zinc-800" onDrop={onDrop}>
        {shown.map((template, index) => (
          <li
            key={template.id}
            ref={(el) => {
              if (el) rows.current.set(template.id, el);
              else rows.current.delete(template.id);
            }}
            draggable={canReorder}
            onDragStart={(e) => onDragStart(e, template)}
            onDragOver={(e) => onDragOver(e, index)}
            onDragEnd={endDrag}
            onKeyDown={(e) => onRowKey(e, template, index)}
            className={cn(
              'relative flex items-start gap-2 px-3 py-3 sm:px-4',
              dragging === template.id && 'opacity-50',
              dropBefore === index && 'shadow-[inset_0_2px_0_0_var(--color-blue-500)]',
              dropBefore === index + 1 &&
                index === shown.length - 1 &&
                'shadow-[inset_0_-2px_0_0_var(--color-blue-500)]',
            )}
          >
            {canReorder && (
              <button
                type="button"
                data-control="handle"
                aria-label={t('list.handle', { title: template.title, position: n(index + 1), total: n(all.length) })}
                aria-describedby={`${id}-hint`}
                className={cn(iconButton, 'mt-0.5 shrink-0 cursor-grab active:cursor-grabbing')}
              >
                <GripIcon width="1.1em" height="1.1em" />
              </button>
            )}
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <Link
                  to={TEMPLATE_PATHS.edit(template.id)}
                  className={cn(
                    'min-w-0 break-words rounded font-medium text-zinc-900 hover:text-blue-700 hover:underline dark:text-zinc-50 dark:hover:text-blue-300',
                    focusRing,
                  )}
                >
                  {template.title}
                </Link>
                <Badge tone={KIND_TONES[template.kind]}>{t(`kinds.${template.kind}`)}</Badge>
              </div>
              <p className="mt-0.5 line-clamp-2 break-words text-sm text-zinc-600 dark:text-zinc-400">
                {template.body}
              </p>
            </div>
            <div className="flex shrink-0 items-center">
              {canReorder && (
                <>
                  <button
                    type="button"
                    data-control="up"
                    className={iconButton}
                    disabled={index === 0}
                    aria-label={t('list.moveUp', { title: template.title })}
                    title={t('list.moveUp', { title: template.title })}
                    onClick={() => move(template, index - 1, 'up')}
                  >
                    <ArrowUpIcon width="1.1em" height="1.1em" />
                  </button>
                  <button
                    type="button"
                    data-control="down"
                    className={iconButton}
                    disabled={index === shown.length - 1}
                    aria-label={t('list.moveDown', { title: template.title })}
                    title={t('list.moveDown', { title: template.title })}
                    onClick={() => move(template, index + 1, 'down')}
                  >
                    <ArrowDownIcon width="1.1em" height="1.1em" />
                  </button>
                </>
              )}
              <button
                type="button"
                className={cn(iconButton, 'hover:text-red-700 dark:hover:text-red-400')}
                aria-label={t('list.deleteNamed', { title: template.title })}
                title={t('list.deleteNamed', { title: template.title })}
                onClick={() => setDeleting(template)}
              >
                <TrashIcon width="1.1em" height="1.1em" />
              </button>
            </div>
          </li>
        ))}
      </ol>
    );
  }

  return (
    <TemplatesSection
      title={t('pageTitle')}
      actions={
        <Link to={TEMPLATE_PATHS.choose} className={buttonClasses('primary')}>
          <PlusIcon width="1em" height="1em" />
          {t('list.create')}
        </Link>
      }
    >
      <Card flush>
        <div className="grid gap-3 border-b border-zinc-200 p-3 sm:grid-cols-[minmax(0,1fr)_14rem] sm:p-4 dark:border-zinc-800">
          <TextField
            type="search"
            label={t('list.search')}
            placeholder={t('list.searchPlaceholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <SelectField
            label={t('list.kindFilter')}
            value={kind}
            onChange={(e) => setKind(e.target.value as TemplateKind | '')}
            options={[
              { value: '', label: t('list.allKinds') },
              ...TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) })),
            ]}
          />
        </div>
        {all.length > 1 && (
          <p id={`${id}-hint`} className="px-3 pb-1 pt-3 text-xs text-zinc-500 sm:px-4 dark:text-zinc-400">
            {canReorder ? t('list.reorderHint') : t('list.reorderFiltered')}
          </p>
        )}
        {list}
        {templates.data && all.length > 0 && (
          <p className="border-t border-zinc-100 px-3 py-2 text-xs text-zinc-500 sm:px-4 dark:border-zinc-800 dark:text-zinc-400">
            {filtered
              ? t('list.countFiltered', { shown: n(shown.length), total: n(all.length) })
              : t('list.count', { total: n(all.length) })}
          </p>
        )}
      </Card>
      <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="reorder-announcement">
        {announcement}
      </div>
      <TransferPanel />
      <ConfirmDialog
        open={deleting !== null}
        title={t('confirmDelete.title', { title: deleting?.title ?? '' })}
        description={t('confirmDelete.body')}
        confirmLabel={t('list.delete')}
        cancelLabel={t('cancel')}
        busy={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setDeleting(null)}
      />
    </TemplatesSection>
  );
}
