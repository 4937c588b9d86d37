import { useTranslation } from 'react-i18next';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '@parley/ui';

/** Name, e-mail and a new password: the fields every way of creating an account asks for. */
export function NewAccountFields({
  fields,
  errors,
}: {
  fields: { name: UseFormRegisterReturn; email: UseFormRegisterReturn; password: UseFormRegisterReturn };
  errors: { name?: unknown; email?: unknown; password?: unknown };
}) {
  const { t } = useTranslation('auth');
  return (
    <>
      <TextField
        label={t('fields.name')}
        autoComplete="given-name"
        error={errors.name ? t('validation.name') : undefined}
        {...fields.name}
      />
      <TextField
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        error={errors.email ? t('validation.email') : undefined}
        {...fields.email}
      />
      <TextField
        label={t('fields.password')}
        type="password"
        autoComplete="new-password"
        hint={t('validation.passwordHint')}
        error={errors.password ? t('validation.passwordLength') : undefined}
        {...fields.password}
      />
    </>
  );
}
