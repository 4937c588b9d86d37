import { ChatScreen } from '../../features/chat';

/** Out of credits, or the plan's limit reached: the answer's error offers the plans. */
const PLANS_PATH = '/subscription';
const API_KEYS_PATH = '/setting/api-keys';

export function ChatPage() {
  return <ChatScreen keysPath={API_KEYS_PATH} plansPath={PLANS_PATH} />;
}
