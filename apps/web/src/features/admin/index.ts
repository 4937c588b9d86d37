export { AdminPortal } from './components/admin-portal';
export { NotAllowed } from './components/not-allowed';
