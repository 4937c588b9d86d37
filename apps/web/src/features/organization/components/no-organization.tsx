import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { ORG_NAME_MAX, orgNameSchema } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, buttonClasses, Card, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useCreateOrganization } from '../api/organization-api';
import { MailIcon, TeamIcon } from './icons';

function CreateOrganizationForm() {
  const { t, i18n } = useTranslation('organization');
  const create = useCreateOrganization();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = orgNameSchema.safeParse(name);
    if (!parsed.success) {
      setProblem(t('create.invalid', { max: formatNumber(ORG_NAME_MAX, i18n.language) }));
      return;
    }
    setProblem(null);
    create.mutate(parsed.data, { onSuccess: (answer) => toast.success(answer.message || t('create.created')) });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4 text-left">
      <TextField
        label={t('create.name')}
        value={name}
        maxLength={ORG_NAME_MAX}
        autoComplete="organization"
        onChange={(event) => setName(event.target.value)}
        error={problem ?? undefined}
      />
      {create.error && <Alert tone="error">{errorMessage(create.error)}</Alert>}
      <Button type="submit" loading={create.isPending} className="w-full sm:w-auto">
        {t('create.submit')}
      </Button>
    </form>
  );
}

/**
 * A person in no organization: on the Team plan they create one here; otherwise they learn that organizations come
 * with the Team plan, and that an invitation is accepted from its e-mail's link.
 */
export function NoOrganization({ canCreate, plansPath }: { canCreate: boolean; plansPath: string }) {
  const { t } = useTranslation('organization');
  return (
    <div className="max-w-xl space-y-4">
      <Card className="space-y-2">
        <TeamIcon className="h-10 w-10 text-blue-500" />
        {canCreate ? (
          <>
            <h2 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('create.title')}</h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('create.body')}</p>
            <CreateOrganizationForm />
          </>
        ) : (
          <>
            <h2 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t('none.title')}</h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('none.body')}</p>
            <div className="pt-2">
              <Link to={plansPath} className={buttonClasses('primary')}>
                {t('none.seePlans')}
              </Link>
            </div>
          </>
        )}
      </Card>
      <div className="flex items-start gap-3 rounded-xl border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        <MailIcon className="mt-0.5 h-5 w-5 shrink-0 text-zinc-400" />
        <p>{t('none.invited')}</p>
      </div>
    </div>
  );
}
