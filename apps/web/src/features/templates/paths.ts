/** The feature's own pages (spec §2: /new-template, /template/*, /template/signature/*, /template-app/*). */
export const TEMPLATE_PATHS = {
  choose: '/new-template',
  list: '/template',
  create: '/template/new',
  edit: (id: string) => `/template/${id}`,
  signatures: '/template/signature',
  newSignature: '/template/signature/new',
  signature: (id: string) => `/template/signature/${id}`,
  shortcuts: '/template/shortcuts',
  newShortcut: '/template/shortcuts?new=1',
} as const;
