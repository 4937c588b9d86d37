export { LoginForm } from './components/login-form';
export { SignupForm } from './components/signup-form';
export { EarlyBirdForm } from './components/early-bird-form';
export { AppDealForm } from './components/app-deal-form';
export { VerifyEmail } from './components/verify-email';
export { ForgotPasswordForm } from './components/forgot-password-form';
export { ResetPasswordForm } from './components/reset-password-form';
export { GoogleSignInButton, GSI_SCRIPT_URL, GOOGLE_BUTTON_HEIGHTS } from './components/google-sign-in-button';
export { signInWithGoogleCredential } from './api/sign-in-calls';
