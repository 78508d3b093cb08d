// Which usage alerts are due: a meter past a threshold (percent of its included amount), or
// projected to pass its included amount by the period's end. Pure; the host shows them and
// remembers which were shown.
import type { MeterFigures, PeriodProjection, UsageMeterName } from './meters';

const DEFAULT_ALERT_THRESHOLDS: readonly number[] = [80, 100];

/** The thresholds from the setting: whole or fractional percentages 1–1000, sorted, each once; the default for anything unusable. */
export function alertThresholds(value: unknown): number[] {
  if (!Array.isArray(value)) return [...DEFAULT_ALERT_THRESHOLDS];
  const usable = value.filter((v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 1 && v <= 1000);
  if (usable.length === 0) return [...DEFAULT_ALERT_THRESHOLDS];
  return [...new Set(usable)].sort((a, b) => a - b);
}

export type AlertTrigger = number | 'projected';

export interface DueAlert {
  meter: UsageMeterName;
  /** The highest threshold passed, or `projected`. */
  trigger: AlertTrigger;
  /** Every threshold this alert stands for (a jump past 80 and 100 is one alert, both remembered). */
  covers: AlertTrigger[];
  figures: MeterFigures;
  /** For `projected`: the projection. */
  projected?: number;
  overBy?: number;
  exceedsOn?: string;
}

/** The identity under which an alert is remembered as shown. */
export function alertId(environmentId: string, period: string, meter: UsageMeterName, trigger: AlertTrigger): string {
  return `${environmentId}|${period}|${meter}|${trigger}`;
}

/**
 * The alerts due for these meters that `shown` does not hold yet. Per meter: the highest
 * threshold passed (covering the lower ones), or else the projection past the included amount.
 */
export function dueAlerts(
  environmentId: string,
  period: string,
  meters: readonly MeterFigures[],
  thresholds: readonly number[],
  projection: PeriodProjection | undefined,
  shown: (id: string) => boolean,
): DueAlert[] {
  const due: DueAlert[] = [];
  for (const figures of meters) {
    if (figures.included <= 0 || figures.percent === undefined) continue;
    const passed = thresholds
      .filter((t) => (figures.percent ?? 0) >= t)
      .filter((t) => !shown(alertId(environmentId, period, figures.name, t)));
    const projected =
      projection?.period === period ? projection.meters.find((p) => p.meter === figures.name) : undefined;
    const heading =
      projected?.overBy !== undefined &&
      figures.used <= figures.included &&
      !shown(alertId(environmentId, period, figures.name, 'projected'));
    if (passed.length > 0) {
      // One notification per meter: the highest threshold passed, with the projection when it also goes over.
      const alert: DueAlert = {
        meter: figures.name,
        trigger: passed[passed.length - 1],
        covers: heading ? [...passed, 'projected'] : passed,
        figures,
      };
      if (heading && projected)
        Object.assign(alert, {
          projected: projected.projected,
          overBy: projected.overBy,
          exceedsOn: projected.exceedsOn,
        });
      due.push(alert);
      continue;
    }
    if (heading && projected) {
      due.push({
        meter: figures.name,
        trigger: 'projected',
        covers: ['projected'],
        figures,
        projected: projected.projected,
        overBy: projected.overBy,
        exceedsOn: projected.exceedsOn,
      });
    }
  }
  return due;
}
