import { ChatScreen } from '../../features/chat';

/** The subscription page does not exist yet: plans and credits are on /home for now. */
const PLANS_PATH = '/home';
const API_KEYS_PATH = '/setting/api-keys';

export function ChatPage() {
  return <ChatScreen keysPath={API_KEYS_PATH} plansPath={PLANS_PATH} />;
}
