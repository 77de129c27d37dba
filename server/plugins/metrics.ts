import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What a plugin gives to add a gauge that is read when Prometheus scrapes (never per request). */
export interface GaugeSpec<L extends string = string> {
  /** snake_case with a unit suffix where there is one, e.g. `taskwise_outbox_pending_mails`. */
  name: string;
  help: string;
  labelNames?: readonly L[];
  /** Sets the gauge's value(s); may query the database. Runs on every scrape. */
  collect: (gauge: Gauge<L>) => void | Promise<void>;
}

export interface Metrics {
  /** True when METRICS_TOKEN is set: only then is anything measured or served. */
  readonly enabled: boolean;
  /** Registers a gauge on this app's registry and returns it. */
  gauge<L extends string = string>(spec: GaugeSpec<L>): Gauge<L>;
  /** The whole exposition (this app's metrics, then the process's), Prometheus text format. */
  render(): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Upper bounds in seconds: most API answers take milliseconds; SSE streams land in +Inf. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * CPU, memory, event-loop lag, GC and handles describe the process, not an app instance: one
 * registry per process, created on first use (a process may build several apps, as tests do).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Prometheus metrics with prom-client, the standard Node client; routes/metrics.ts serves them.
 * Nothing is measured unless METRICS_TOKEN is set: without it no hook runs at all.
 *
 * Per request the cost is one `Histogram.observe` in `onResponse`, labelled by method, route
 * pattern (never the raw URL, so label sets stay few) and status. `http_requests_total` is not
 * counted separately: it is read from the histogram's counts when scraped.
 * @see https://github.com/siimon/prom-client
 */
export default fp(
  (fastify, _opts, done) => {
    const token = fastify.config.metricsToken;
    const registry = new Registry();

    const metrics: Metrics = {
      enabled: token !== null,
      gauge<L extends string>(spec: GaugeSpec<L>): Gauge<L> {
        const { collect } = spec;
        return new Gauge<L>({
          name: spec.name,
          help: spec.help,
          labelNames: spec.labelNames ?? [],
          registers: [registry],
          collect() {
            return collect(this);
          },
        });
      },
      async render() {
        const own = await registry.metrics();
        return token === null ? own : `${own}\n${await processMetrics().metrics()}`;
      },
    };
    fastify.decorate('metrics', metrics);

    if (token !== null) {
      const duration = new Histogram({
        name: 'http_request_duration_seconds',
        help: 'Time from request received to response sent, by method, route pattern and status.',
        labelNames: ['method', 'route', 'status'],
        buckets: DURATION_BUCKETS,
        registers: [registry],
      });
      new Counter({
        name: 'http_requests_total',
        help: 'Answered requests, by method, route pattern and status.',
        labelNames: ['method', 'route', 'status'],
        registers: [registry],
        async collect() {
          this.reset();
          for (const sample of (await duration.get()).values) {
            if (sample.metricName === 'http_request_duration_seconds_count') this.inc(sample.labels, sample.value);
          }
        },
      });
      fastify.addHook('onResponse', (request, reply, next) => {
        duration.observe(
          { method: request.method, route: (request.routeOptions.config.catchAll === true ? undefined : request.routeOptions.url) ?? 'unmatched', status: reply.statusCode },
          reply.elapsedTime / 1000,
        );
        next();
      });

      const pool = fastify.dbPoolStats;
      if (pool !== null) {
        metrics.gauge({
          name: 'taskwise_db_pool_connections',
          help: 'PostgreSQL pool connections: total open, idle, and callers waiting for one.',
          labelNames: ['state'],
          collect(gauge) {
            const stats = pool();
            gauge.set({ state: 'total' }, stats.total);
            gauge.set({ state: 'idle' }, stats.idle);
            gauge.set({ state: 'waiting' }, stats.waiting);
          },
        });
      }
    }

    done();
  },
  { name: 'metrics', dependencies: ['config', 'db'] },
);
