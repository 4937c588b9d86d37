import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { nameSchema, profileUpdateSchema, timezoneSchema, uiLanguageSchema, type Profile } from '@parley/contract';
import { LANGUAGES } from '@parley/i18n';
import { Button, Card, CardTitle, SelectField, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { applyLanguage } from '../../../lib/i18n';
import { useUpdateProfile } from '../api/profile-api';

const schema = z.object({
  name: nameSchema,
  fullName: profileUpdateSchema.shape.fullName.unwrap(),
  timezone: timezoneSchema,
  language: uiLanguageSchema,
});

function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}

export function ProfileForm({ user }: { user: Profile }) {
  const { t } = useTranslation('profile');
  const update = useUpdateProfile();
  const zones = useMemo(
    () => timeZones(user.timezone).map((z) => ({ value: z, label: z.replaceAll('_', ' ') })),
    [user.timezone],
  );
  const {
    register,
    handleSubmit,
    formState: { errors, isDirty },
    reset,
  } = useForm({
    resolver: zodResolver(schema),
    values: { name: user.name, fullName: user.fullName, timezone: user.timezone, language: user.language },
  });

  const onSubmit = handleSubmit((body) =>
    update.mutate(body, {
      onSuccess: async (result) => {
        reset(body);
        if (body.language !== user.language) await applyLanguage(body.language);
        toast.success(result.message || t('saved'));
      },
      onError: (error) => toast.error(errorMessage(error)),
    }),
  );

  return (
    <Card>
      <CardTitle>{t('details.title')}</CardTitle>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('fields.name')}
          autoComplete="given-name"
          error={errors.name && t('validation.name')}
          {...register('name')}
        />
        <TextField
          label={t('fields.fullName')}
          autoComplete="name"
          error={errors.fullName && t('validation.fullName')}
          {...register('fullName')}
        />
        <TextField
          label={t('fields.email')}
          value={user.email}
          readOnly
          aria-readonly="true"
          hint={t('fields.emailHint')}
          className="bg-zinc-50 dark:bg-zinc-800"
        />
        <SelectField
          label={t('fields.timezone')}
          options={zones}
          error={errors.timezone && t('validation.timezone')}
          {...register('timezone')}
        />
        <SelectField
          label={t('fields.language')}
          options={LANGUAGES.map((lng) => ({ value: lng, label: t(`shell:languages.${lng}`) }))}
          {...register('language')}
        />
        <div className="flex items-end justify-end sm:col-span-2">
          <Button type="submit" loading={update.isPending} disabled={!isDirty}>
            {t('save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
