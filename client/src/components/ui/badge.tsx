import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * The colours of each tone. Statuses name their tone in shared/ (contract and invoice statuses); the
 * classes that draw it live here, in the client, only.
 */
export const BADGE_TONES = {
  grey: 'border-slate-200 bg-slate-100 text-slate-700',
  green: 'border-green-200 bg-green-100 text-green-800',
  yellow: 'border-yellow-200 bg-yellow-100 text-yellow-800',
  red: 'border-red-200 bg-red-100 text-red-800',
  blue: 'border-blue-200 bg-blue-100 text-blue-800',
  indigo: 'border-indigo-200 bg-indigo-50 text-indigo-700',
} as const;

export const badgeVariants = cva('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium', {
  variants: {
    tone: BADGE_TONES,
  },
  defaultVariants: { tone: 'grey' },
});

export function Badge({ className, tone, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
