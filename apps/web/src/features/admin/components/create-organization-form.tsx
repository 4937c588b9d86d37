import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ORG_NAME_MAX, adminCreateOrganizationBodySchema, type AdminCreateOrganizationBody } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, Card, TextField } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { ApiError, errorMessage } from '../../../lib/api';
import { useCreateOrganization } from '../api/admin-api';

type Form = { name: string; ownerEmail: string };

/** Server refusals that are about the owner's address: the field says why, beside the server's message. */
const OWNER_ERRORS: Record<string, string> = {
  NOT_FOUND: 'organizations.form.noAccount',
  ALREADY_IN_ORGANIZATION: 'organizations.form.alreadyMember',
};

/**
 * An organization made for a person, who becomes its owner and first admin; their plan pays for it and gives its
 * seats. Checked with the contract's rules, created after a confirmation question.
 */
export function CreateOrganizationForm({
  onCreated,
  onCancel,
}: {
  onCreated: (id: string) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const create = useCreateOrganization();
  const heading = useRef<HTMLHeadingElement>(null);
  const [pending, setPending] = useState<AdminCreateOrganizationBody | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    formState: { errors },
  } = useForm<Form>({
    resolver: zodResolver(adminCreateOrganizationBodySchema),
    defaultValues: { name: '', ownerEmail: '' },
  });

  useEffect(() => heading.current?.focus(), []);

  const nameError = errors.name
    ? errors.name.type === 'too_big'
      ? t('organizations.form.nameMax', { max: formatNumber(ORG_NAME_MAX, i18n.language) })
      : t('organizations.form.nameRequired')
    : undefined;
  const emailError = errors.ownerEmail
    ? errors.ownerEmail.type === 'server'
      ? errors.ownerEmail.message
      : getValues('ownerEmail').trim()
        ? t('organizations.form.emailInvalid')
        : t('organizations.form.emailRequired')
    : undefined;

  const onSubmit = handleSubmit((values) => {
    setServerError(null);
    setPending(values);
  });

  const confirm = () => {
    if (!pending) return;
    create.mutate(pending, {
      onSuccess: (result) => {
        toast.success(result.message);
        setPending(null);
        onCreated(result.data.organization.id);
      },
      onError: (error) => {
        setPending(null);
        setServerError(errorMessage(error));
        const about = error instanceof ApiError ? OWNER_ERRORS[error.code] : undefined;
        if (about) setError('ownerEmail', { type: 'server', message: t(about) });
      },
    });
  };

  return (
    <Card>
      <h2
        id="admin-org-create"
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold text-zinc-900 focus:outline-none dark:text-zinc-50"
      >
        {t('organizations.form.title')}
      </h2>
      <form onSubmit={onSubmit} noValidate aria-labelledby="admin-org-create" className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('organizations.form.name')} autoComplete="off" error={nameError} {...register('name')} />
          <TextField
            label={t('organizations.form.ownerEmail')}
            type="email"
            autoComplete="off"
            spellCheck={false}
            error={emailError}
            {...register('ownerEmail')}
          />
        </div>
        <div className="space-y-1 text-xs text-zinc-600 dark:text-zinc-400">
          <p>{t('organizations.form.hint')}</p>
          <p>
            {t('organizations.form.seatsHint')}{' '}
            <code className="break-all rounded bg-zinc-100 px-1 py-0.5 font-mono text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
              npm run admin -- set-plan --email {t('organizations.form.commandEmail')} --plan team --seats N
            </code>
          </p>
        </div>
        {serverError && <Alert tone="error">{serverError}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button type="submit">{t('organizations.create')}</Button>
        </div>
      </form>
      <ConfirmDialog
        open={pending !== null}
        tone="primary"
        title={t('organizations.confirm.title')}
        description={pending && t('organizations.confirm.body', { name: pending.name, email: pending.ownerEmail })}
        confirmLabel={t('organizations.confirm.confirm')}
        cancelLabel={t('cancel')}
        busy={create.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
