/**
 * Preloaded (node --import) into the shipped server by test/e2e/one-graphql.test.ts: the bundle
 * carries graphql inside it, so any file of node_modules/graphql that the process loads, by
 * import, dynamic import or require (createRequire included), is a second copy. Each is reported
 * on stderr with a marker the test looks for.
 */
import Module from 'node:module';

export const MARKER = 'SECOND-GRAPHQL-COPY';
const isGraphqlFile = (path) => /[\\/]node_modules[\\/]graphql[\\/]/.test(path);
const report = (how, path) => process.stderr.write(`${MARKER} ${how} ${path}\n`);

const load = Module._load;
Module._load = function (request, parent, isMain) {
  const resolved = (() => {
    try {
      return Module._resolveFilename(request, parent, isMain);
    } catch {
      return '';
    }
  })();
  if (isGraphqlFile(resolved)) report('require', resolved);
  return load.apply(this, arguments);
};

Module.register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      if (/[\\\\/]node_modules[\\\\/]graphql[\\\\/]/.test(result.url)) process.stderr.write('${MARKER} import ' + result.url + '\\n');
      return result;
    }`)}`,
);
