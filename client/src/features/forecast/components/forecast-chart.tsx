import type { ForecastMonth } from '@shared/contracts/forecast';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { formatMoney } from '@/lib/format';
import { compactMoney, monthLabel, niceStep, shortMonthLabel, sumOf } from '../lib/format';

const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 26, left: 52 };
/** The room an axis label needs ("Mar '27" at 11 px), so labels are thinned out on a narrow chart. */
const LABEL_WIDTH = 44;
const COLORS = { booked: '#4f46e5', weighted: '#a5b4fc', target: '#d97706' };

/** The width the chart is given (it draws in pixels, so its text stays readable at any width). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      if (element.clientWidth > 0) setWidth(element.clientWidth);
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * The months of the forecast as bars, drawn in plain SVG (no chart library: this screen's first load): what is
 * booked, with the weighted pipeline stacked on it, and the month's target as a mark across the bar. Screen
 * readers get a summary (the table under it has every figure); each month's figures are its tooltip too.
 */
export function ForecastChart({ months, scope }: { months: ForecastMonth[]; scope: string }) {
  const { ref, width } = useWidth();
  const titleId = useId();
  const descId = useId();
  const plotWidth = Math.max(width - PAD.left - PAD.right, 40);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  // Nothing at all still draws an axis in round dollars ($0 to $1K).
  const highest = Math.max(0, ...months.map((m) => Math.max(m.booked + m.weighted, m.target ?? 0))) || 1000;
  const step = niceStep(highest);
  const top = Math.max(step, Math.ceil(highest / step) * step);
  const y = (dollars: number) => PAD.top + plotHeight - (dollars / top) * plotHeight;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const slot = plotWidth / Math.max(months.length, 1);
  const barWidth = Math.max(Math.min(slot * 0.6, 44), 3);
  const labelEvery = Math.max(1, Math.ceil(LABEL_WIDTH / slot));
  const first = months[0]?.month;
  const last = months[months.length - 1]?.month;
  const targets = months.some((m) => m.target !== null);

  return (
    <div ref={ref} className="w-full" data-testid="forecast-chart">
      <svg
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descId}
        className="block max-w-full overflow-visible"
      >
        <title id={titleId}>{`Forecast by month, ${scope}`}</title>
        <desc id={descId}>
          {first && last
            ? `${monthLabel(first)} to ${monthLabel(last)}: ${formatMoney(sumOf(months, 'booked'))} booked and ` +
              `${formatMoney(sumOf(months, 'weighted'))} weighted pipeline in all` +
              (targets ? `, against targets of ${formatMoney(sumOf(months, 'target'))}` : '') +
              '. The table below has each month.'
            : 'No months.'}
        </desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={PAD.left + plotWidth}
              y1={y(tick)}
              y2={y(tick)}
              stroke={tick === 0 ? '#94a3b8' : '#e2e8f0'}
              strokeDasharray={tick === 0 ? undefined : '3 3'}
            />
            <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={11} fill="#64748b">
              {compactMoney(tick)}
            </text>
          </g>
        ))}
        {months.map((m, i) => {
          const center = PAD.left + slot * i + slot / 2;
          const left = center - barWidth / 2;
          const bookedTop = y(m.booked);
          const stackTop = y(m.booked + m.weighted);
          return (
            <g key={m.month} data-testid="forecast-chart-month">
              <title>
                {`${monthLabel(m.month)}: booked ${formatMoney(m.booked)}, weighted ${formatMoney(m.weighted)}` +
                  (m.target === null ? '' : `, target ${formatMoney(m.target)}`)}
              </title>
              {/* The whole slot, so the tooltip shows anywhere over the month. */}
              <rect x={PAD.left + slot * i} y={PAD.top} width={slot} height={plotHeight} fill="transparent" />
              <rect
                x={left}
                y={stackTop}
                width={barWidth}
                height={Math.max(bookedTop - stackTop, 0)}
                fill={COLORS.weighted}
              />
              <rect
                x={left}
                y={bookedTop}
                width={barWidth}
                height={Math.max(y(0) - bookedTop, 0)}
                fill={COLORS.booked}
              />
              {m.target !== null && m.target > 0 && (
                <line
                  data-testid="forecast-chart-target"
                  x1={center - Math.min(slot * 0.45, barWidth / 2 + 6)}
                  x2={center + Math.min(slot * 0.45, barWidth / 2 + 6)}
                  y1={y(m.target)}
                  y2={y(m.target)}
                  stroke={COLORS.target}
                  strokeWidth={3}
                  strokeLinecap="round"
                />
              )}
              {i % labelEvery === 0 && (
                <text x={center} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="#64748b">
                  {shortMonthLabel(m.month)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-hidden>
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm" style={{ background: COLORS.booked }} /> Booked
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm" style={{ background: COLORS.weighted }} /> Weighted pipeline
        </li>
        <li className="flex items-center gap-1.5">
          <span className="h-0.5 w-4 rounded" style={{ background: COLORS.target }} /> Target
        </li>
      </ul>
    </div>
  );
}
