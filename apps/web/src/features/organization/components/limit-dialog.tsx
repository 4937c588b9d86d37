import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { MEMBER_LIMIT_MAX, type TeamMember } from '@parley/contract';
import { formatNumber } from '@parley/i18n';
import { Alert, Button, TextField } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useSetMemberLimit } from '../api/organization-api';
import { Dialog } from './dialog';

const radioClasses = 'h-4 w-4 border-zinc-300 text-blue-600 focus:ring-2 focus:ring-blue-500/40 dark:border-zinc-600';

function LimitForm({ member, onClose }: { member: TeamMember; onClose: () => void }) {
  const { t, i18n } = useTranslation('organization');
  const id = useId();
  const save = useSetMemberLimit();
  const [unlimited, setUnlimited] = useState(member.limit === null);
  const [value, setValue] = useState(member.limit === null ? '' : String(member.limit));
  const [problem, setProblem] = useState<string | null>(null);
  const n = (v: number) => formatNumber(v, i18n.language);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    let limit: number | null = null;
    if (!unlimited) {
      const typed = value.trim();
      limit = /^\d+$/.test(typed) ? Number(typed) : NaN;
      if (!Number.isInteger(limit) || limit < 0 || limit > MEMBER_LIMIT_MAX) {
        setProblem(t('limit.invalid', { max: n(MEMBER_LIMIT_MAX) }));
        return;
      }
    }
    setProblem(null);
    save.mutate(
      { id: member.id, limit },
      {
        onSuccess: (answer) => {
          toast.success(answer.message || t('limit.saved'));
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <fieldset className="space-y-2">
        <legend className="sr-only">{t('limit.kind')}</legend>
        <label className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input
            type="radio"
            name={`${id}-kind`}
            className={radioClasses}
            checked={unlimited}
            onChange={() => {
              setUnlimited(true);
              setProblem(null);
            }}
          />
          {t('limit.none')}
        </label>
        <label className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input
            type="radio"
            name={`${id}-kind`}
            className={radioClasses}
            checked={!unlimited}
            onChange={() => setUnlimited(false)}
          />
          {t('limit.monthly')}
        </label>
      </fieldset>
      {!unlimited && (
        <TextField
          label={t('limit.field')}
          type="number"
          inputMode="numeric"
          min={0}
          max={MEMBER_LIMIT_MAX}
          step={1}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={problem ?? undefined}
          hint={member.used !== null ? t('limit.usedSoFar', { used: n(member.used) }) : undefined}
        />
      )}
      {save.error && <Alert tone="error">{errorMessage(save.error)}</Alert>}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button type="submit" loading={save.isPending}>
          {t('limit.save')}
        </Button>
      </div>
    </form>
  );
}

/** Set Limit: credits a member may spend from the organization's wallet each month (UTC), or no limit. */
export function LimitDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const { t } = useTranslation('organization');
  return (
    <Dialog
      open={member !== null}
      title={t('limit.title', { name: member ? member.name || member.email : '' })}
      description={t('limit.description')}
      closeLabel={t('close')}
      onClose={onClose}
    >
      {/* Keyed: each opening starts from that member's current limit. */}
      {member && <LimitForm key={member.id} member={member} onClose={onClose} />}
    </Dialog>
  );
}
