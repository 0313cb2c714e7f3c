import { Hammer } from 'lucide-react';
import { EmptyState } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';

/** A screen whose feature is not built yet: says so plainly, with no invented figures. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState icon={<Hammer />} title="Coming soon">
        This screen is on its way.
      </EmptyState>
    </>
  );
}
