/**
 * Optional OpenTelemetry tracing: when OTEL_EXPORTER_OTLP_ENDPOINT is set, every GraphQL
 * execution becomes a span exported over OTLP/HTTP. Documents, variables, resolver arguments
 * and results are left out of spans (they carry user content).
 */
import { useOpenTelemetry } from '@envelop/opentelemetry';
import { SpanKind } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Plugin } from 'graphql-yoga';
import type { OpsConfig } from '../config.js';

export function createTracing(config: OpsConfig['tracing']): { plugin: Plugin; shutdown(): Promise<void> } | null {
  if (!config) return null;
  const provider = new BasicTracerProvider({ resource: new Resource({ 'service.name': config.serviceName }) });
  const url = `${config.endpoint.replace(/\/+$/, '')}/v1/traces`;
  provider.addSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  const plugin = useOpenTelemetry(
    { resolvers: false, variables: false, result: false, document: false },
    provider,
    SpanKind.SERVER,
    {},
    config.serviceName,
  ) as unknown as Plugin;
  return { plugin, shutdown: () => provider.shutdown().catch(() => {}) };
}
