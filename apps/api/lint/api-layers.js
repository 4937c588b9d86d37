import path from 'node:path';

/**
 * The API's modules and their layers (docs/decisions/016): a module imports another only through its index.ts,
 * and only a module of a lower layer. Tests may also use another module's test fixtures (`*-fixtures.ts`).
 */
export const API_LAYERS = {
  accounts: 1,
  organizations: 2,
  billing: 3,
  models: 3,
  documents: 3,
  templates: 3,
  storage: 3,
  chat: 4,
  writing: 4,
  images: 4,
  linkedin: 4,
  admin: 5,
};

const apiLayersRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename.split(path.sep).join('/');
    const modulesDir = file.indexOf('/apps/api/src/modules/');
    const srcDir = file.indexOf('/apps/api/src/');
    if (srcDir === -1) return {};
    const from = modulesDir === -1 ? null : file.slice(modulesDir + '/apps/api/src/modules/'.length).split('/')[0];
    const isTest = /\.test\.ts$|\/test\//.test(file);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), source));
      const at = target.indexOf('/apps/api/src/modules/');
      if (at === -1) return;
      const [to, ...rest] = target.slice(at + '/apps/api/src/modules/'.length).split('/');
      if (to === from) return;
      const entry = rest.join('/');
      if (isTest && /-fixtures\.js$/.test(entry)) return;
      if (entry !== 'index.js') {
        context.report({ node, message: `Use the ${to} module through its index.ts, not ${entry}.` });
        return;
      }
      if (from === null) {
        if (
          !/\/apps\/api\/src\/(app|server|cli)\.ts$/.test(file) &&
          !/\/apps\/api\/src\/plugins\//.test(file) &&
          !isTest
        )
          context.report({
            node,
            message: 'Only app.ts, server.ts, cli.ts and plugins use modules; lib, db and providers stay below them.',
          });
        return;
      }
      const fromLayer = API_LAYERS[from];
      const toLayer = API_LAYERS[to];
      if (fromLayer === undefined || toLayer === undefined) {
        context.report({
          node,
          message: `Give the module ${fromLayer === undefined ? from : to} a layer in apps/api/lint/api-layers.js.`,
        });
      } else if (toLayer >= fromLayer) {
        context.report({
          node,
          message: `${from} (layer ${fromLayer}) may not use ${to} (layer ${toLayer}): modules use only lower layers.`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default apiLayersRule;
