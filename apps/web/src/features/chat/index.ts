export { ChatScreen } from './components/chat-screen';
