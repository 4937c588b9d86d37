import { useTranslation } from 'react-i18next';
import { AccountFacts, ChangePasswordForm, ProfileForm, RedeemCodeForm } from '../../features/profile';
import { useCurrentUser } from '../../lib/current-user';

export function ProfilePage() {
  const { t } = useTranslation('profile');
  const user = useCurrentUser();
  if (!user.data) return null;
  return (
    <div className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{t('title')}</h1>
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="space-y-6 lg:col-span-2">
          <ProfileForm user={user.data} />
          <ChangePasswordForm hasPassword={user.data.hasPassword} />
          <RedeemCodeForm user={user.data} />
        </div>
        <AccountFacts user={user.data} />
      </div>
    </div>
  );
}
