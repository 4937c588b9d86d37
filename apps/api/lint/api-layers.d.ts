import type { Rule } from 'eslint';

export const API_LAYERS: Record<string, number>;
declare const apiLayersRule: Rule.RuleModule;
export default apiLayersRule;
