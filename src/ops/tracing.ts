/**
 * Optional OpenTelemetry tracing: when OTEL_EXPORTER_OTLP_ENDPOINT is set, every GraphQL
 * execution becomes a span exported over OTLP/HTTP. Documents, variables, resolver arguments
 * and results are left out of spans (they carry user content).
 */
import type { Plugin } from 'graphql-yoga';
import type { OpsConfig } from '../config.server.js';

export interface Tracing {
  plugin: Plugin;
  shutdown(): Promise<void>;
}

/**
 * Async so that OpenTelemetry (a large import) is loaded only when tracing is configured: the
 * caller awaits it before buildApp (which refuses a tracing config without it).
 */
export async function loadTracing(config: OpsConfig['tracing']): Promise<Tracing | null> {
  if (!config) return null;
  const [{ useOpenTelemetry }, { SpanKind }, { OTLPTraceExporter }, { Resource }, { BasicTracerProvider, BatchSpanProcessor }] = await Promise.all([
    import('@envelop/opentelemetry'),
    import('@opentelemetry/api'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  const provider = new BasicTracerProvider({ resource: new Resource({ 'service.name': config.serviceName }) });
  const url = `${config.endpoint.replace(/\/+$/, '')}/v1/traces`;
  provider.addSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  const plugin = useOpenTelemetry({ resolvers: false, variables: false, result: false, document: false }, provider, SpanKind.SERVER, {}, config.serviceName) as unknown as Plugin;
  return { plugin, shutdown: () => provider.shutdown().catch(() => {}) };
}
