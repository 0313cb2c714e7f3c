import { lazy, Suspense } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/feedback';

// The form (its zod schema, react-hook-form and the format select) loads right after the screen paints.
const ExportForm = lazy(() => import('./export-form').then((module) => ({ default: module.ExportForm })));

/** "New export": the card the screen paints at once, and the form in it as soon as it has loaded. */
export function ExportFormCard() {
  return (
    <Card className="mb-6 max-w-4xl">
      <CardHeader className="pb-4">
        <CardTitle className="text-lg">New export</CardTitle>
        <CardDescription>
          Documents are taken by the day they were issued (payments by the day the money moved), in the business's
          calendar.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Suspense
          fallback={
            <div className="grid gap-3" aria-busy="true">
              <Skeleton className="h-9 w-full max-w-xl" />
              <Skeleton className="h-9 w-32" />
            </div>
          }
        >
          <ExportForm />
        </Suspense>
      </CardContent>
    </Card>
  );
}
