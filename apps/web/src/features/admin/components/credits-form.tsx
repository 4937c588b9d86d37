import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { ADMIN_CREDIT_MAX, type AdminCredits, type AdminUser } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Button, TextField } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useEditUser } from '../api/admin-api';

export const CREDIT_FIELDS = ['dailyCredit', 'basicCredit', 'advanceCredit', 'extraAdvanceCredit'] as const;

/** One credit as typed: required ('Please enter each credit'), a whole number, 0 or more, within the server's bound. */
const credit = z
  .string()
  .trim()
  .min(1, 'required')
  .regex(/^\d+$/, 'whole')
  .refine((v) => Number(v) <= ADMIN_CREDIT_MAX, 'max');
const schema = z.object(
  Object.fromEntries(CREDIT_FIELDS.map((f) => [f, credit])) as Record<(typeof CREDIT_FIELDS)[number], typeof credit>,
);
type Form = z.infer<typeof schema>;

/**
 * Spec §5: the four credits, each required. The new values replace the balances after a confirmation; spends made
 * meanwhile are kept by the server (it sets the balances under the wallet's lock).
 */
export function CreditsForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const edit = useEditUser();
  const [pending, setPending] = useState<AdminCredits | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Form>({
    resolver: zodResolver(schema),
    defaultValues: Object.fromEntries(CREDIT_FIELDS.map((f) => [f, String(user.credits[f])])) as Form,
  });

  const messageOf = (error: { message?: string | undefined } | undefined) =>
    error &&
    (error.message === 'required'
      ? t('credits.required')
      : error.message === 'max'
        ? t('credits.max', { max: formatNumber(ADMIN_CREDIT_MAX, lng) })
        : t('credits.whole'));

  const onSubmit = handleSubmit((values) =>
    setPending(Object.fromEntries(CREDIT_FIELDS.map((f) => [f, Number(values[f])])) as AdminCredits),
  );

  const confirm = () => {
    if (!pending) return;
    edit.mutate(
      { id: user.id, credits: pending },
      {
        onSuccess: (result) => {
          toast.success(result.message || t('credits.saved'));
          setPending(null);
          onDone();
        },
        onError: (error) => {
          toast.error(errorMessage(error));
          setPending(null);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('credits.title')} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {CREDIT_FIELDS.map((field) => (
          <TextField
            key={field}
            label={t(`credits.${field}`)}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            error={messageOf(errors[field])}
            {...register(field)}
          />
        ))}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          {t('cancel')}
        </Button>
        <Button type="submit">{t('credits.save')}</Button>
      </div>
      <ConfirmDialog
        open={pending !== null}
        tone="primary"
        title={t('credits.confirm.title')}
        description={
          pending &&
          t('credits.confirm.body', {
            email: user.email,
            values: CREDIT_FIELDS.map((f) => `${t(`credits.${f}`)} ${formatNumber(pending[f], lng)}`).join(' · '),
          })
        }
        confirmLabel={t('credits.confirm.confirm')}
        cancelLabel={t('cancel')}
        busy={edit.isPending}
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </form>
  );
}
