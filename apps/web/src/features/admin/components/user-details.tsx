import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { AdminUser, SubscriptionStatus } from '@parley/contract';
import { formatDate, formatFullDateTime, formatNumber } from '@parley/i18n';
import { Alert, Button, Card, CardTitle, SkeletonBar, ArrowLeftIcon } from '@parley/ui';
import { ConfirmDialog } from '@parley/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useAdminUserPlan, useDeleteUser, useEditUser, useForceLogout, useRemoveUserPlan } from '../api/admin-api';
import { CREDIT_FIELDS, CreditsForm } from './credits-form';
import { Fact, Facts } from './facts';
import { PlanFacts } from './plan-facts';
import { UserAutomations } from './user-automations';

/** A subscription in one of these pays for its plan (see the server's isLive), so it can be removed. */
const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid'];

type Action = 'lifetime' | 'multipleLogin' | 'forceLogout' | 'removePlan' | 'delete';

/**
 * One person: profile, plan, credits and use, and what a site admin can do about them — each action after a
 * confirmation question that says what will happen.
 */
export function UserDetails({
  user,
  self,
  onBack,
}: {
  user: AdminUser;
  /** The admin looking is this person (they cannot delete themself). */
  self: boolean;
  onBack: () => void;
}) {
  // Plan names and statuses are the plan pages' words; languages the shell's.
  const { t, i18n } = useTranslation(['admin', 'plans', 'shell']);
  const lng = i18n.language;
  const heading = useRef<HTMLHeadingElement>(null);
  const plan = useAdminUserPlan(user.id);
  const edit = useEditUser();
  const forceLogout = useForceLogout();
  const removePlan = useRemoveUserPlan();
  const remove = useDeleteUser();
  const [editingCredits, setEditingCredits] = useState(false);
  const [confirming, setConfirming] = useState<Action | null>(null);

  useEffect(() => heading.current?.focus(), []);

  const number = (n: number) => formatNumber(n, lng);
  const yesNo = (on: boolean) => (on ? t('yes') : t('no'));
  const subscription = plan.data?.plan.subscription ?? null;
  const planLive = Boolean(subscription && LIVE.includes(subscription.status));
  const who = user.name || user.email;

  const done = (result: { message: string }) => {
    toast.success(result.message);
    setConfirming(null);
  };
  const failed = (error: unknown) => {
    toast.error(errorMessage(error));
    setConfirming(null);
  };
  const run: Record<Action, () => void> = {
    lifetime: () =>
      edit.mutate({ id: user.id, lifetimeUser: !user.lifetimeUser }, { onSuccess: done, onError: failed }),
    multipleLogin: () =>
      edit.mutate({ id: user.id, multipleLogin: !user.multipleLogin }, { onSuccess: done, onError: failed }),
    forceLogout: () => forceLogout.mutate(user.id, { onSuccess: done, onError: failed }),
    removePlan: () => removePlan.mutate(user.id, { onSuccess: done, onError: failed }),
    delete: () =>
      remove.mutate(user.id, {
        onSuccess: (result) => {
          done(result);
          onBack();
        },
        onError: failed,
      }),
  };
  const busy = edit.isPending || forceLogout.isPending || removePlan.isPending || remove.isPending;

  const questions: Record<Action, { title: string; body: string; confirm: string; tone: 'primary' | 'danger' }> = {
    lifetime: user.lifetimeUser
      ? {
          title: t('confirm.revokeLifetime.title'),
          body: t('confirm.revokeLifetime.body', { who }),
          confirm: t('actions.revokeLifetime'),
          tone: 'danger',
        }
      : {
          title: t('confirm.grantLifetime.title'),
          body: t('confirm.grantLifetime.body', { who }),
          confirm: t('actions.grantLifetime'),
          tone: 'primary',
        },
    multipleLogin: user.multipleLogin
      ? {
          title: t('confirm.forbidMultiple.title'),
          body: t('confirm.forbidMultiple.body', { who }),
          confirm: t('actions.forbidMultiple'),
          tone: 'primary',
        }
      : {
          title: t('confirm.allowMultiple.title'),
          body: t('confirm.allowMultiple.body', { who }),
          confirm: t('actions.allowMultiple'),
          tone: 'primary',
        },
    forceLogout: {
      title: t('confirm.forceLogout.title'),
      body: self ? t('confirm.forceLogout.bodySelf') : t('confirm.forceLogout.body', { who }),
      confirm: t('actions.forceLogout'),
      tone: 'danger',
    },
    removePlan: {
      title: t('confirm.removePlan.title'),
      body: t('confirm.removePlan.body', {
        who,
        plan: t(`plans:names.${plan.data?.plan.plan ?? user.plan}`),
        base: t(`plans:names.${plan.data?.plan.basePlan ?? 'free'}`),
      }),
      confirm: t('actions.removePlan'),
      tone: 'danger',
    },
    delete: {
      title: t('confirm.delete.title'),
      body: t('confirm.delete.body', { who, email: user.email }),
      confirm: t('actions.delete'),
      tone: 'danger',
    },
  };
  const open = confirming ? questions[confirming] : null;

  return (
    <section aria-labelledby="admin-user-heading" className="space-y-4">
      <Button variant="ghost" onClick={onBack} className="-ml-2">
        <ArrowLeftIcon width="1em" height="1em" />
        {t('users.back')}
      </Button>
      <div>
        <h2
          id="admin-user-heading"
          ref={heading}
          tabIndex={-1}
          className="break-words text-xl font-semibold text-zinc-900 focus:outline-none dark:text-zinc-50"
        >
          {user.name}
        </h2>
        <p className="break-all text-sm text-zinc-600 dark:text-zinc-400">{user.email}</p>
      </div>

      <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <Card>
          <CardTitle as="h3">{t('details.profile')}</CardTitle>
          <Facts>
            <Fact label={t('fields.fullName')}>{user.fullName || '—'}</Fact>
            <Fact label={t('fields.role')}>{t(`roles.${user.role}`)}</Fact>
            <Fact label={t('fields.verified')}>{yesNo(user.verified)}</Fact>
            <Fact label={t('fields.language')}>{t(`shell:languages.${user.language}`)}</Fact>
            <Fact label={t('fields.timezone')}>{user.timezone}</Fact>
            <Fact label={t('fields.joined')}>{formatDate(user.joinDate, lng)}</Fact>
            <Fact label={t('fields.lastLogin')}>
              {user.lastLoginAt ? formatFullDateTime(user.lastLoginAt, lng) : t('users.never')}
            </Fact>
            <Fact label={t('fields.loginCount')}>{number(user.loginCount)}</Fact>
            <Fact label={t('fields.activeSessions')}>{number(user.activeSessions)}</Fact>
            <Fact label={t('fields.lifetime')}>{yesNo(user.lifetimeUser)}</Fact>
            <Fact label={t('fields.multipleLogin')}>{yesNo(user.multipleLogin)}</Fact>
          </Facts>
        </Card>

        <div className="space-y-4">
          <Card>
            <CardTitle as="h3">{t('details.plan')}</CardTitle>
            {plan.isError ? (
              <Alert tone="error" className="mt-3">
                {errorMessage(plan.error)}
              </Alert>
            ) : !plan.data ? (
              <div className="mt-3 space-y-2" aria-busy="true">
                <SkeletonBar className="h-4 w-1/2" />
                <SkeletonBar className="h-4 w-2/3" />
              </div>
            ) : (
              <PlanFacts plan={plan.data.plan} />
            )}
          </Card>

          <Card>
            <CardTitle as="h3">{t('details.credits')}</CardTitle>
            {editingCredits ? (
              <div className="mt-3">
                <CreditsForm user={user} onDone={() => setEditingCredits(false)} />
              </div>
            ) : (
              <>
                <Facts>
                  {CREDIT_FIELDS.map((f) => (
                    <Fact key={f} label={t(`credits.${f}`)}>
                      {number(user.credits[f])}
                    </Fact>
                  ))}
                </Facts>
                <h4 className="mt-4 text-sm font-semibold text-zinc-900 dark:text-zinc-100">{t('details.usage')}</h4>
                <Facts>
                  <Fact label={t('usage.basic')}>{number(user.basicUse)}</Fact>
                  <Fact label={t('usage.advance')}>{number(user.advanceUse)}</Fact>
                  <Fact label={t('usage.extraAdvance')}>{number(user.extraAdvanceUse)}</Fact>
                  <Fact label={t('usage.total')}>{number(user.monthlyUse)}</Fact>
                </Facts>
              </>
            )}
          </Card>
        </div>
      </div>

      <UserAutomations userId={user.id} who={who} />

      <Card>
        <CardTitle as="h3">{t('details.actions')}</CardTitle>
        <div className="mt-3 flex flex-wrap gap-2">
          {!editingCredits && (
            <Button variant="secondary" onClick={() => setEditingCredits(true)}>
              {t('actions.editCredits')}
            </Button>
          )}
          <Button variant="secondary" onClick={() => setConfirming('lifetime')}>
            {user.lifetimeUser ? t('actions.revokeLifetime') : t('actions.grantLifetime')}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming('multipleLogin')}>
            {user.multipleLogin ? t('actions.forbidMultiple') : t('actions.allowMultiple')}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming('forceLogout')}>
            {t('actions.forceLogout')}
          </Button>
          {planLive && (
            <Button variant="secondary" onClick={() => setConfirming('removePlan')}>
              {t('actions.removePlan')}
            </Button>
          )}
          {!self && (
            <Button variant="danger" onClick={() => setConfirming('delete')}>
              {t('actions.delete')}
            </Button>
          )}
        </div>
      </Card>

      <ConfirmDialog
        open={open !== null}
        title={open?.title ?? ''}
        description={open?.body}
        confirmLabel={open?.confirm ?? ''}
        cancelLabel={t('cancel')}
        tone={open?.tone ?? 'primary'}
        busy={busy}
        onConfirm={() => confirming && run[confirming]()}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
