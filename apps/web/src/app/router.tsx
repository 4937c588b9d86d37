import { lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { loadTranslations } from '../lib/i18n';
import { GuestOnly, RequireAuth } from './guards';
import { AuthLayout } from './layouts/auth-layout';
import { HeaderLayout } from './layouts/header-layout';
import { RootShell, type RouteHandle } from './root-shell';
import { RouteError } from './route-error';
import { CatchAll, IndexRedirect, NotFoundPage, RedirectPage, SettingsAlias, SignoutPage } from './routes/simple-pages';

// Every page loads on demand (Suspense shows a skeleton), so /login never loads the dashboard and /home never loads
// the form library.
//
// A page's module comes with the translations its parts show (`withTranslations`, the shared components' too: the
// model picker of @parley/ui shows 'chat' keys): a part that asked for them only
// when it first rendered (a plan chooser, once its data has come) would suspend then, outside the navigation's
// transition, and React shows content that suspended so no sooner than 300 ms after its fallback: /subscription
// took 420–520 ms from the click, 300 of them waiting after its last file had come.
const withTranslations =
  <T,>(load: () => Promise<T>, namespaces: string[]) =>
  () =>
    Promise.all([load(), loadTranslations(namespaces)]).then(([module]) => module);
const LoginPage = lazy(() => import('./routes/login').then((m) => ({ default: m.LoginPage })));
const homePage = withTranslations(() => import('./routes/home'), ['home']);
const HomePage = lazy(() => homePage().then((m) => ({ default: m.HomePage })));
const authPages = withTranslations(() => import('./routes/auth-pages'), ['auth', 'profile']);
const SignupPage = lazy(() => authPages().then((m) => ({ default: m.SignupPage })));
const EarlyBirdSignupPage = lazy(() => authPages().then((m) => ({ default: m.EarlyBirdSignupPage })));
const AppDealSignupPage = lazy(() => authPages().then((m) => ({ default: m.AppDealSignupPage })));
const VerifyEmailPage = lazy(() => authPages().then((m) => ({ default: m.VerifyEmailPage })));
const ForgotPasswordPage = lazy(() => authPages().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => authPages().then((m) => ({ default: m.ResetPasswordPage })));
const profilePage = withTranslations(() => import('./routes/profile'), ['profile']);
const ProfilePage = lazy(() => profilePage().then((m) => ({ default: m.ProfilePage })));
const settingsPages = withTranslations(() => import('./routes/settings'), ['settings', 'chat']);
const AppearancePage = lazy(() => settingsPages().then((m) => ({ default: m.AppearancePage })));
const GeneralSettingsPage = lazy(() => settingsPages().then((m) => ({ default: m.GeneralSettingsPage })));
const InstantReplyPage = lazy(() => settingsPages().then((m) => ({ default: m.InstantReplyPage })));
const OtherSettingsPage = lazy(() => settingsPages().then((m) => ({ default: m.OtherSettingsPage })));
const onboardingPages = withTranslations(() => import('./routes/onboarding'), ['onboarding', 'plans', 'chat']);
const OnboardingPage = lazy(() => onboardingPages().then((m) => ({ default: m.OnboardingPage })));
const OnboardingNotValidPage = lazy(() => onboardingPages().then((m) => ({ default: m.OnboardingNotValidPage })));
const chatPage = withTranslations(() => import('./routes/chat'), ['chat']);
const ChatPage = lazy(() => chatPage().then((m) => ({ default: m.ChatPage })));
const apiKeysPage = withTranslations(() => import('./routes/api-keys'), ['apiKeys', 'settings']);
const ApiKeysPage = lazy(() => apiKeysPage().then((m) => ({ default: m.ApiKeysPage })));
const InstallPage = lazy(() => import('./routes/install').then((m) => ({ default: m.InstallPage })));
const ExtensionIndexPage = lazy(() => import('./routes/install').then((m) => ({ default: m.ExtensionIndexPage })));
const plansPages = withTranslations(() => import('./routes/plans'), ['plans', 'settings']);
const SubscriptionPage = lazy(() => plansPages().then((m) => ({ default: m.SubscriptionPage })));
const PaymentCallPage = lazy(() => plansPages().then((m) => ({ default: m.PaymentCallPage })));
const PaymentSuccessPage = lazy(() => plansPages().then((m) => ({ default: m.PaymentSuccessPage })));
const PlanSettingsPage = lazy(() => plansPages().then((m) => ({ default: m.PlanSettingsPage })));

const adminPage = withTranslations(() => import('./routes/admin'), ['admin', 'plans', 'linkedin']);
const AdminPortalPage = lazy(() => adminPage().then((m) => ({ default: m.AdminPortalPage })));
const organizationPages = withTranslations(() => import('./routes/organization'), ['organization', 'plans']);
const OrganizationPage = lazy(() => organizationPages().then((m) => ({ default: m.OrganizationPage })));
const JoinOrganizationPage = lazy(() => organizationPages().then((m) => ({ default: m.JoinOrganizationPage })));
const JoinOrganizationSignedOutPage = lazy(() =>
  organizationPages().then((m) => ({ default: m.JoinOrganizationSignedOutPage })),
);

const templatePages = withTranslations(() => import('./routes/templates'), ['templates']);
const NewTemplatePage = lazy(() => templatePages().then((m) => ({ default: m.NewTemplatePage })));
const TemplateListPage = lazy(() => templatePages().then((m) => ({ default: m.TemplateListPage })));
const TemplateEditorPage = lazy(() => templatePages().then((m) => ({ default: m.TemplateEditorPage })));
const SignatureListPage = lazy(() => templatePages().then((m) => ({ default: m.SignatureListPage })));
const SignatureEditorPage = lazy(() => templatePages().then((m) => ({ default: m.SignatureEditorPage })));
const ShortcutsPage = lazy(() => templatePages().then((m) => ({ default: m.ShortcutsPage })));
const TemplatePickerPage = lazy(() => templatePages().then((m) => ({ default: m.TemplatePickerPage })));

const imagePages = withTranslations(() => import('./routes/images'), ['images']);
const ImageGenerationPage = lazy(() => imagePages().then((m) => ({ default: m.ImageGenerationPage })));
const ImageEditorPage = lazy(() => imagePages().then((m) => ({ default: m.ImageEditorPage })));

// The LinkedIn assistant's pages (spec §2): [path, the page in routes/linkedin.tsx, its title in shell:pages], kept as a
// table so that the route list every page loads stays small.
const linkedinPages = withTranslations(() => import('./routes/linkedin'), ['linkedin']);
type LinkedinPage = Exclude<keyof Awaited<ReturnType<typeof linkedinPages>>, 'default'>;
const LINKEDIN_ROUTES: [string, LinkedinPage, string][] = [
  ['linkedin-auth-redirect', 'AuthRedirectPage', 'Redirect'],
  ['automation', 'AutomationIndexPage', 'Dashboard'],
  ['automation/linkedin-access-1', 'ConnectPage', 'Connect'],
  ['automation/linkedInLogout', 'LogoutPage', 'Logout'],
  ['automation/dashboard-linkedin', 'LinkedinDashboardPage', 'Dashboard'],
  ['automation/keywords', 'KeywordsPage', 'Keywords'],
  ['automation/profiles', 'ProfilesPage', 'Profiles'],
  ['automation/customization', 'CustomizationPage', 'Customization'],
  ['automation/linkedInStatus', 'StatsPage', 'Stats'],
  ['automation/linkedInSetting', 'LinkedinSettingsPage', 'Settings'],
  ['automation/li-automation', 'AutomationsPage', 'Automations'],
  ['automation/post-automation', 'PostListPage', 'Posts'],
  ['automation/post-automation/new', 'PostEditorPage', 'NewPost'],
  ['automation/post-automation/status', 'PostStatusPage', 'Automations'],
  ['automation/post-automation/:id', 'PostEditorPage', 'Post'],
];
const linkedinLazy = new Map<LinkedinPage, ReturnType<typeof lazy>>();
const linkedinRoutes = (): RouteObject[] =>
  LINKEDIN_ROUTES.map(([path, name, key]) => {
    let Page = linkedinLazy.get(name);
    if (!Page) {
      Page = lazy(() => linkedinPages().then((m) => ({ default: m[name] })));
      linkedinLazy.set(name, Page);
    }
    return { path, element: <Page />, handle: title(`shell:pages.linkedin${key}`) };
  });

const title = (key: string): RouteHandle => ({ title: key });

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <IndexRedirect /> },
      {
        element: (
          <GuestOnly>
            <AuthLayout />
          </GuestOnly>
        ),
        children: [
          { path: 'login', element: <LoginPage />, handle: title('auth:login.pageTitle') },
          { path: 'signup', element: <SignupPage />, handle: title('auth:signup.pageTitle') },
          { path: 'earlybird/signup', element: <EarlyBirdSignupPage />, handle: title('auth:earlyBird.pageTitle') },
          { path: 'appsumo/signup', element: <AppDealSignupPage />, handle: title('auth:appDeal.pageTitle') },
          { path: 'forgot-password', element: <ForgotPasswordPage />, handle: title('auth:forgot.title') },
          { path: 'reset-password', element: <ResetPasswordPage />, handle: title('auth:reset.title') },
        ],
      },
      {
        element: <AuthLayout />,
        children: [{ path: 'verify-email', element: <VerifyEmailPage />, handle: title('auth:verify.title') }],
      },
      { path: 'not-found', element: <NotFoundPage />, handle: title('common:notFound.title') },
      { path: 'redirect', element: <RedirectPage /> },
      { path: 'settings/*', element: <SettingsAlias /> },
      { path: 'install', element: <InstallPage />, handle: title('common:install.pageTitle') },
      { path: 'install/:id', element: <InstallPage />, handle: title('common:install.pageTitle') },
      // The extension's own page (spec §2), opened as a web address: say where it lives.
      {
        path: 'extensionIndex.html',
        element: <ExtensionIndexPage />,
        handle: title('common:install.extensionPage.pageTitle'),
      },
      // Opened from an invitation's e-mail. Signed out, the invitation is kept in this browser and the visitor chooses
      // to sign in or create an account; either way it is waiting after sign-in (lib/pending-join.ts).
      {
        element: <AuthLayout />,
        children: [
          {
            path: 'join-organization',
            element: <RequireAuth signedOut={<JoinOrganizationSignedOutPage />} />,
            handle: title('shell:pages.joinOrganization'),
            children: [{ index: true, element: <JoinOrganizationPage /> }],
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { path: 'on-boarding/not-valid', element: <OnboardingNotValidPage />, handle: title('onboarding:pageTitle') },
          { path: 'on-boarding/:step', element: <OnboardingPage />, handle: title('onboarding:pageTitle') },
          { path: 'signout', element: <SignoutPage />, handle: title('shell:signOut') },
          {
            element: <HeaderLayout menu="main" />,
            children: [
              { path: 'home', element: <HomePage />, handle: title('home:title') },
              { path: 'profile', element: <ProfilePage />, handle: title('profile:title') },
              // One route for a new chat and an open one, so the page stays mounted when a new chat gets its id.
              { path: 'chat/:chatId?', element: <ChatPage />, handle: title('shell:menu.chat') },
              { path: 'subscription', element: <SubscriptionPage />, handle: title('shell:menu.subscription') },
              { path: 'payment-call', element: <PaymentCallPage />, handle: title('shell:pages.checkout') },
              { path: 'paymentSuccess', element: <PaymentSuccessPage />, handle: title('shell:pages.payment') },
              { path: 'admin-portal', element: <AdminPortalPage />, handle: title('shell:menu.admin') },
              { path: 'organization', element: <OrganizationPage />, handle: title('shell:pages.organization') },
              { path: 'new-template', element: <NewTemplatePage />, handle: title('shell:pages.newTemplate') },
              { path: 'template', element: <TemplateListPage />, handle: title('shell:pages.templates') },
              { path: 'template/new', element: <TemplateEditorPage />, handle: title('shell:pages.newTemplate') },
              { path: 'template/shortcuts', element: <ShortcutsPage />, handle: title('shell:pages.shortcuts') },
              { path: 'template/signature', element: <SignatureListPage />, handle: title('shell:pages.signatures') },
              {
                path: 'template/signature/new',
                element: <SignatureEditorPage />,
                handle: title('shell:pages.newSignature'),
              },
              {
                path: 'template/signature/:id',
                element: <SignatureEditorPage />,
                handle: title('shell:pages.signature'),
              },
              { path: 'template/:id', element: <TemplateEditorPage />, handle: title('shell:pages.template') },
              { path: 'template-app/*', element: <TemplatePickerPage />, handle: title('shell:pages.templatePicker') },
              {
                path: 'image-generation',
                element: <ImageGenerationPage />,
                handle: title('shell:pages.imageGeneration'),
              },
              { path: 'image-editor', element: <ImageEditorPage />, handle: title('shell:pages.imageEditor') },
              { path: 'image-editor/:id', element: <ImageEditorPage />, handle: title('shell:pages.imageEditor') },
              ...linkedinRoutes(),
            ],
          },
          {
            path: 'setting',
            element: <HeaderLayout menu="settings" />,
            children: [
              { index: true, element: <AppearancePage />, handle: title('settings:appearance.pageTitle') },
              { path: 'general', element: <GeneralSettingsPage />, handle: title('settings:general.pageTitle') },
              {
                path: 'instant-reply',
                element: <InstantReplyPage />,
                handle: title('settings:instantReply.pageTitle'),
              },
              { path: 'other', element: <OtherSettingsPage />, handle: title('settings:other.pageTitle') },
              { path: 'api-keys', element: <ApiKeysPage />, handle: title('settings:menu.apiKeys') },
              { path: 'plan', element: <PlanSettingsPage />, handle: title('settings:menu.plan') },
            ],
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
