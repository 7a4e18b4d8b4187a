// Checks HTTP exchanges against openapi.json, the document other people generate clients and
// mocks from: the operation (or a 405 the path declares), the status, every header the service
// sends beyond plain HTTP ones, the content type and the body against the response's schema; and
// the request (its content type, body and query) against the operation. Problems come back as
// one line each; an empty list means the exchange is what the document says.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';

type Obj = Record<string, any>;

// ajv-formats is CommonJS; its default export arrives wrapped or not depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

/** Headers of plain HTTP (framing, caching, connection): not the contract's business. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'server',
  'content-encoding',
]);

export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  requestHeaders: Record<string, string | undefined>;
  requestBody: Buffer;
  status: number;
  responseHeaders: Record<string, string | undefined>;
  responseBody: Buffer;
}

export interface MatchedOperation {
  path: string;
  method: string;
  operation: Obj;
}

export function loadOpenApi(): Obj {
  return JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as Obj;
}

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly paths: { template: string; regex: RegExp }[];

  /** `requests: false` checks answers only (for traffic that includes deliberately bad requests). */
  constructor(
    readonly doc: Obj = loadOpenApi(),
    private readonly options: { requests: boolean } = { requests: true },
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: 'openapi.json' });
    // The most literal template first: /releases/validate/upc before /releases/{releaseId}.
    this.paths = Object.keys(doc.paths)
      .map((template) => ({
        template,
        regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => holes(a.template) - holes(b.template));
  }

  /** Follows one `$ref` into the document. */
  resolve<T = Obj>(node: Obj): T {
    let n = node;
    while (typeof n?.$ref === 'string') {
      n = n.$ref
        .slice(2)
        .split('/')
        .reduce((o: Obj, k: string) => o[k], this.doc);
    }
    return n as T;
  }

  /**
   * The path template a concrete path belongs to: the most literal one with an operation for the
   * method (GET /preferences/label/artist/remove is getLabelArtist of the id "remove"), else the
   * most literal one.
   */
  pathOf(pathname: string, method?: string): string | undefined {
    const matching = this.paths.filter((p) => p.regex.test(pathname));
    const m = method === undefined ? undefined : asMethod(method);
    return (matching.find((p) => m !== undefined && this.doc.paths[p.template][m]) ?? matching[0])?.template;
  }

  operationOf(method: string, pathname: string): MatchedOperation | undefined {
    const path = this.pathOf(pathname, method);
    if (!path) return undefined;
    const operation = this.doc.paths[path][asMethod(method)] as Obj | undefined;
    return operation ? { path, method: asMethod(method), operation } : undefined;
  }

  /** Validates `value` against the schema at `pointer` inside the document (e.g. `#/paths/…`). */
  validate(pointer: string, value: unknown): string[] {
    let fn = this.compiled.get(pointer);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `openapi.json${pointer}` });
      this.compiled.set(pointer, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
  }

  /** Everything about this exchange that the document does not say. */
  check(x: Exchange): string[] {
    const url = new URL(x.url, 'http://x');
    const label = `${x.method} ${url.pathname} → ${x.status}`;
    // The sandbox's review controls are the service's test double, described in docs/api.md and
    // deliberately kept out of the document.
    if (url.pathname.startsWith('/_sandbox/')) return [];
    const path = this.pathOf(url.pathname, x.method);
    if (!path) return x.status === 404 ? [] : [`${label}: no path in the document`];
    const pathItem = this.doc.paths[path] as Obj;
    const method = asMethod(x.method);
    const escaped = path.replaceAll('~', '~0').replaceAll('/', '~1');
    let opPointer = `#/paths/${escaped}/${method}`;
    let operation = pathItem[method] as Obj | undefined;
    if (!operation) {
      // A method the path does not take: the document must declare the 405 on that path.
      const declaring = Object.entries(pathItem).find(([, op]) => (op as Obj).responses?.['405']);
      if (x.status !== 405 || !declaring) return [`${label}: no ${x.method} operation on ${path}, and no 405 declared there`];
      operation = declaring[1] as Obj;
      opPointer = `#/paths/${escaped}/${declaring[0]}`;
    } else {
      const request = this.options.requests ? this.checkRequest(x, operation, opPointer, label) : [];
      return [...request, ...this.checkResponse(x, operation, opPointer, label)];
    }
    return this.checkResponse(x, operation, opPointer, label);
  }

  private checkRequest(x: Exchange, operation: Obj, opPointer: string, label: string): string[] {
    const problems: string[] = [];
    const url = new URL(x.url, 'http://x');
    const params = ((operation.parameters ?? []) as Obj[]).map((p) => this.resolve(p));
    const queryParams = new Map(params.filter((p) => p.in === 'query').map((p) => [p.name as string, p]));
    for (const name of new Set(url.searchParams.keys())) {
      if (!queryParams.has(name)) problems.push(`${label}: request: query parameter ${name} is not declared`);
    }
    for (const [name, p] of queryParams) {
      const value = url.searchParams.get(name);
      if (value === null) {
        if (p.required) problems.push(`${label}: request: required query parameter ${name} missing`);
        continue;
      }
      const typed = p.schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const index = (operation.parameters as Obj[]).findIndex((q) => this.resolve(q) === p);
      for (const e of this.validate(`${opPointer}/parameters/${index}/schema`, typed)) problems.push(`${label}: request: query ${name}: ${e}`);
    }
    const requestBody = operation.requestBody ? this.resolve(operation.requestBody) : undefined;
    if (requestBody && x.requestBody.length > 0) {
      const type = mediaType(x.requestHeaders['content-type']);
      const media = requestBody.content?.[type];
      if (!media) {
        problems.push(`${label}: request: content type ${type || '(none)'} not declared (declared: ${Object.keys(requestBody.content).join(', ')})`);
      } else if (type === 'application/json') {
        const pointer = `${opPointer}/requestBody/content/application~1json/schema`;
        for (const e of this.validate(pointer, JSON.parse(x.requestBody.toString('utf8')))) problems.push(`${label}: request body: ${e}`);
      }
    } else if (requestBody?.required && x.requestBody.length === 0) {
      problems.push(`${label}: request: required body missing`);
    }
    return problems;
  }

  private checkResponse(x: Exchange, operation: Obj, opPointer: string, label: string): string[] {
    const problems: string[] = [];
    const key = String(x.status);
    const declared = operation.responses[key] ?? operation.responses.default;
    if (!declared) return [`${label}: status ${x.status} not declared for ${operation.operationId}`];
    const response = this.resolve(declared);
    const responsePointer = typeof declared.$ref === 'string' ? declared.$ref : `${opPointer}/responses/${key}`;
    const headers = Object.fromEntries(Object.entries((response.headers ?? {}) as Obj).map(([k, v]) => [k.toLowerCase(), this.resolve(v)]));
    for (const [name, value] of Object.entries(x.responseHeaders)) {
      if (value === undefined || TRANSPORT_HEADERS.has(name)) continue;
      const header = headers[name];
      if (!header) {
        problems.push(`${label}: header ${name} not declared for ${operation.operationId} ${key}`);
        continue;
      }
      const typed = header.schema?.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const headerName = Object.keys(response.headers).find((k) => k.toLowerCase() === name)!;
      const raw = response.headers[headerName] as Obj;
      const pointer = typeof raw.$ref === 'string' ? `${raw.$ref}/schema` : `${responsePointer}/headers/${headerName}/schema`;
      for (const e of this.validate(pointer, typed)) problems.push(`${label}: header ${name}: ${e}`);
    }
    for (const [name, header] of Object.entries(headers)) {
      if (header.required && x.responseHeaders[name] === undefined) problems.push(`${label}: required header ${name} missing`);
    }
    const content = response.content as Obj | undefined;
    // HEAD is GET without the body (RFC 9110), which the service answers for every GET.
    if (x.method === 'HEAD') return problems;
    if (x.responseBody.length === 0) {
      if (content) problems.push(`${label}: empty body where the document declares ${Object.keys(content).join(', ')}`);
      return problems;
    }
    const type = mediaType(x.responseHeaders['content-type']);
    if (!content?.[type]) return [...problems, `${label}: body of type ${type || '(none)'} not declared`];
    let body: unknown;
    try {
      body = JSON.parse(x.responseBody.toString('utf8'));
    } catch {
      return [...problems, `${label}: body is not JSON`];
    }
    for (const e of this.validate(`${responsePointer}/content/application~1json/schema`, body)) problems.push(`${label}: body ${e}`);
    return problems;
  }
}

/** The operation a method is checked against: HEAD is answered as GET, without the body. */
const asMethod = (method: string) => (method === 'HEAD' ? 'get' : method.toLowerCase());

const holes = (template: string) => template.split('{').length - 1;

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}
