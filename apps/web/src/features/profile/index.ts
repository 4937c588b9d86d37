export { ProfileForm } from './components/profile-form';
export { AccountFacts } from './components/account-facts';
export { ChangePasswordForm } from './components/change-password-form';
