export { AdminPortal } from './components/admin-portal';
export { ShieldIcon } from './components/icons';
export { NotAllowed } from './components/not-allowed';
