import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import type { ForecastParams } from '../lib/params';
import { forecastPath } from './get-forecast';

/** GET /api/forecast/export as a file download: a line per rep and month, then the totals (the server names it). */
export function downloadForecastCsv(params: ForecastParams): Promise<string> {
  return downloadFile(forecastPath('/api/forecast/export', params), { fallbackName: 'forecast.csv' });
}

export function useExportForecast() {
  return useMutation({ mutationFn: downloadForecastCsv });
}
