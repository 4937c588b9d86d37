import { defineBackground } from 'wxt/utils/define-background';
import { startBackground } from '../app/background';

/** The background worker (see app/background.ts). */
export default defineBackground(startBackground);
