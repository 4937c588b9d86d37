import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { apiKeyBodySchema, KEY_PROVIDERS, type ApiKeyInfo, type KeyProvider } from '@parley/contract';
import { formatDate } from '@parley/i18n';
import { TrashIcon } from '@parley/ui/action-icons';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import {
  Alert,
  Button,
  Card,
  CardTitle,
  KeyIcon,
  SelectField,
  SkeletonBar,
  TextField,
  cn,
  focusRing,
} from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useAddApiKey, useApiKeys, useDeleteApiKey } from '../api/api-keys-api';

type FormValues = {
  provider: KeyProvider;
  apiKey: string;
  baseUrl?: string | undefined;
  modelName?: string | undefined;
};

/** Empty optional fields are left out rather than sent as ''. */
const optional = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

function AddKeyForm() {
  const { t } = useTranslation('apiKeys');
  const add = useAddApiKey();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(apiKeyBodySchema),
    defaultValues: { provider: 'openai', apiKey: '' },
  });
  const provider = watch('provider');
  // A self-hosted server (chat, or images such as a local Stable Diffusion) is reached at its own address.
  const images = provider === 'openaiCompatibleImages';
  const compatible = provider === 'openaiCompatible' || images;

  const onSubmit = handleSubmit((values) =>
    add.mutate(compatible ? values : { provider: values.provider, apiKey: values.apiKey }, {
      onSuccess: (saved) => {
        reset({ provider: saved.provider, apiKey: '' });
        toast.success(t('saved', { provider: t(`providers.${saved.provider}`) }));
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
      {add.error && <Alert tone="error">{errorMessage(add.error)}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t('form.provider')}
          options={KEY_PROVIDERS.map((p) => ({ value: p, label: t(`providers.${p}`) }))}
          {...register('provider')}
        />
        <TextField
          label={t('form.apiKey')}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('form.apiKeyPlaceholder')}
          error={errors.apiKey && t('validation.apiKey')}
          {...register('apiKey')}
        />
      </div>
      {compatible && (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('form.baseUrl')}
            type="url"
            inputMode="url"
            placeholder={images ? 'http://localhost:7860/v1' : 'http://localhost:11434/v1'}
            hint={t(images ? 'form.baseUrlImagesHint' : 'form.baseUrlHint')}
            error={errors.baseUrl && t('validation.baseUrl')}
            {...register('baseUrl', { setValueAs: optional })}
          />
          <TextField
            label={t(images ? 'form.modelNameOptional' : 'form.modelName')}
            placeholder={images ? 'stable-diffusion' : 'llama3.1'}
            spellCheck={false}
            error={errors.modelName && t('validation.modelName')}
            {...register('modelName', { setValueAs: optional })}
          />
        </div>
      )}
      <div className="flex justify-end">
        <Button type="submit" loading={add.isPending}>
          {t('form.submit')}
        </Button>
      </div>
    </form>
  );
}

function SavedKeys() {
  const { t, i18n } = useTranslation('apiKeys');
  const keys = useApiKeys();
  const remove = useDeleteApiKey();
  const [confirm, setConfirm] = useState<ApiKeyInfo | null>(null);

  if (keys.isPending) return <SkeletonBar className="mt-4 h-12 w-full" />;
  if (keys.isError) return <Alert tone="error">{errorMessage(keys.error)}</Alert>;
  if (keys.data.length === 0) return <p className="mt-3 text-sm text-zinc-500 dark:text-zinc-400">{t('list.empty')}</p>;

  return (
    <>
      <ul className="mt-4 divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {keys.data.map((key) => (
          <li key={key.provider} className="flex items-center gap-3 px-4 py-3">
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
              <KeyIcon />
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-zinc-900 dark:text-zinc-100">{t(`providers.${key.provider}`)}</p>
              <p className="truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">
                {key.maskedKey}
                {key.modelName && ` · ${key.modelName}`}
                {key.baseUrl && ` · ${key.baseUrl}`}
              </p>
              <p className="text-xs text-zinc-400">
                {t('list.updated', { date: formatDate(key.updatedAt, i18n.language) })}
              </p>
            </div>
            <button
              type="button"
              onClick={() => setConfirm(key)}
              aria-label={t('list.delete', { provider: t(`providers.${key.provider}`) })}
              title={t('list.delete', { provider: t(`providers.${key.provider}`) })}
              className={cn(
                'rounded-md p-2 text-zinc-500 hover:bg-red-50 hover:text-red-600 dark:hover:bg-red-500/10',
                focusRing,
              )}
            >
              <TrashIcon />
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirm !== null}
        title={t('list.deleteTitle')}
        description={confirm ? t('list.deleteText', { provider: t(`providers.${confirm.provider}`) }) : undefined}
        confirmLabel={t('list.deleteConfirm')}
        cancelLabel={t('list.cancel')}
        busy={remove.isPending}
        onConfirm={() =>
          confirm &&
          remove.mutate(confirm.provider, {
            onSuccess: () => {
              toast.success(t('deleted', { provider: t(`providers.${confirm.provider}`) }));
              setConfirm(null);
            },
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
        onCancel={() => setConfirm(null)}
      />
    </>
  );
}

/** Bring your own key: one per provider; requests that use it do not spend credits. The page says what keys are for. */
export function ApiKeysSettings() {
  const { t } = useTranslation('apiKeys');
  return (
    <div className="space-y-6">
      <Card>
        <CardTitle>{t('form.title')}</CardTitle>
        <Alert tone="info" className="mt-4">
          {t('credits')}
        </Alert>
        <AddKeyForm />
      </Card>
      <Card>
        <CardTitle>{t('list.title')}</CardTitle>
        <SavedKeys />
      </Card>
    </div>
  );
}
