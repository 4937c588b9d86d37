import { Navigate, useParams } from 'react-router';
import { LINKEDIN_PATHS, PostEditorPage as PostEditor } from '../../features/linkedin';

export {
  AuthRedirectPage,
  AutomationsPage,
  ConnectPage,
  CustomizationPage,
  KeywordsPage,
  LinkedinDashboardPage,
  LinkedinSettingsPage,
  LogoutPage,
  PostListPage,
  ProfilesPage,
  StatsPage,
} from '../../features/linkedin';

/** /automation: the dashboard. */
export function AutomationIndexPage() {
  return <Navigate to={LINKEDIN_PATHS.dashboard} replace />;
}

/** /automation/post-automation/status: the posts' Overview Status. */
export function PostStatusPage() {
  return <Navigate to={`${LINKEDIN_PATHS.automations}?tab=status`} replace />;
}

/** /automation/post-automation/new and /automation/post-automation/{automationId}. */
export function PostEditorPage() {
  const { id } = useParams();
  const automationId = id && id !== 'new' ? id : undefined;
  return <PostEditor key={automationId ?? 'new'} automationId={automationId} />;
}
