import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { SIGNATURE_SITES, type Signature } from '@parley/contract';
import { Alert, Button, buttonClasses, Card, SkeletonBar, cn, focusRing } from '@parley/ui';
import { PencilIcon, PlusIcon, TrashIcon } from '@parley/ui/action-icons';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useDeleteSignature, useSignatures } from '../api/templates-api';
import { TEMPLATE_PATHS } from '../paths';
import { SignatureIcon } from './icons';
import { Badge, TemplatesSection } from './section';
import { SignaturePreview } from './signature-preview';

/** 'Gmail', 'Outlook' or the address, in the reader's words. */
export function useScopeName() {
  const { t } = useTranslation('templates');
  return (scope: string) =>
    (SIGNATURE_SITES as readonly string[]).includes(scope) ? t(`signatures.sites.${scope}`) : scope;
}

/** /template/signature: the person's signatures, where each is the default, each shown as a mail shows it. */
export function SignatureList() {
  const { t } = useTranslation('templates');
  const signatures = useSignatures();
  const remove = useDeleteSignature();
  const scopeName = useScopeName();
  const [deleting, setDeleting] = useState<Signature | null>(null);

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: (answer) => {
        toast.success(answer.message || t('signatures.deleted'));
        setDeleting(null);
      },
      onError: (error) => {
        toast.error(errorMessage(error));
        setDeleting(null);
      },
    });
  };

  let content;
  if (signatures.isError) {
    content = (
      <Alert tone="error" className="space-y-2">
        <p>{errorMessage(signatures.error)}</p>
        <Button variant="secondary" onClick={() => void signatures.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  } else if (!signatures.data) {
    content = (
      <div className="grid gap-4 sm:grid-cols-2" aria-busy="true">
        <SkeletonBar className="h-48 w-full" />
        <SkeletonBar className="h-48 w-full" />
      </div>
    );
  } else if (signatures.data.length === 0) {
    content = (
      <Card className="flex flex-col items-center gap-2 py-10 text-center">
        <SignatureIcon className="h-8 w-8 text-zinc-400" />
        <p className="font-medium text-zinc-900 dark:text-zinc-50">{t('signatures.emptyTitle')}</p>
        <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{t('signatures.emptyBody')}</p>
        <Link to={TEMPLATE_PATHS.newSignature} className={buttonClasses('primary', 'mt-2')}>
          <PlusIcon width="1em" height="1em" />
          {t('signatures.new')}
        </Link>
      </Card>
    );
  } else {
    content = (
      <ul aria-label={t('signatures.label')} className="grid gap-4 sm:grid-cols-2">
        {signatures.data.map((signature) => (
          <li key={signature.id}>
            <Card className="flex h-full flex-col gap-3 p-4">
              <div className="flex items-start justify-between gap-2">
                <h2 className="min-w-0 break-words font-medium text-zinc-900 dark:text-zinc-50">{signature.name}</h2>
                <div className="flex shrink-0 gap-1">
                  <Link
                    to={TEMPLATE_PATHS.signature(signature.id)}
                    aria-label={t('signatures.editNamed', { name: signature.name })}
                    title={t('signatures.editNamed', { name: signature.name })}
                    className={cn(
                      'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
                      focusRing,
                    )}
                  >
                    <PencilIcon width="1.05em" height="1.05em" />
                  </Link>
                  <button
                    type="button"
                    aria-label={t('signatures.deleteNamed', { name: signature.name })}
                    title={t('signatures.deleteNamed', { name: signature.name })}
                    onClick={() => setDeleting(signature)}
                    className={cn(
                      'inline-flex h-8 w-8 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-red-400',
                      focusRing,
                    )}
                  >
                    <TrashIcon width="1.05em" height="1.05em" />
                  </button>
                </div>
              </div>
              <div className="flex flex-wrap gap-1.5">
                {signature.defaultFor.length > 0 ? (
                  signature.defaultFor.map((scope) => (
                    <Badge key={scope} tone="blue">
                      {t('signatures.defaultIn', { place: scopeName(scope) })}
                    </Badge>
                  ))
                ) : (
                  <Badge>{t('signatures.notDefault')}</Badge>
                )}
              </div>
              <SignaturePreview
                alone
                html={signature.html}
                className="h-36 w-full rounded-md border border-zinc-200 bg-white dark:border-zinc-800"
              />
            </Card>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <TemplatesSection
      title={t('signatures.pageTitle')}
      actions={
        <Link to={TEMPLATE_PATHS.newSignature} className={buttonClasses('primary')}>
          <PlusIcon width="1em" height="1em" />
          {t('signatures.new')}
        </Link>
      }
    >
      {content}
      <ConfirmDialog
        open={deleting !== null}
        title={t('signatures.confirmDelete', { name: deleting?.name ?? '' })}
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
