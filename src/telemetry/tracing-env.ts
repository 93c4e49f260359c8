/**
 * Whether the standard OTEL_* environment asks for traces (an exporter or an OTLP endpoint is named). Apart from
 * tracing.ts so that deciding costs no load of the OpenTelemetry SDK.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_TRACES_EXPORTER || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}
