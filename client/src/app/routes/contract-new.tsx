import { ArrowLeft } from 'lucide-react';
import { Link, useSearchParams } from 'wouter';
import { AccessDenied } from '@/components/ui/feedback';
import { PageHeader } from '@/components/ui/page-header';
import { ContractForm } from '@/features/contracts/components/contract-form';
import { useContractAccess } from '@/features/contracts/hooks/use-contract-access';
import { preselectedCustomerId } from '@/features/contracts/lib/preselected-customer';
import { paths } from '@/lib/paths';

export default function NewContractPage() {
  const { canRead, canWrite } = useContractAccess();
  // ?customerId=<id>: a link from a customer's page starts the form with that customer chosen.
  const [params] = useSearchParams();
  if (!canRead) return <AccessDenied message="You don't have permission to view contracts" />;
  if (!canWrite) return <AccessDenied message="You don't have permission to create contracts" />;
  return (
    <>
      <Link
        href={paths.contracts}
        className="mb-4 inline-flex items-center gap-1 rounded text-sm text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden /> Back to contracts
      </Link>
      <PageHeader
        title="New Contract"
        description="Choose a customer and either a package or products; the summary shows what they will pay."
      />
      <ContractForm initialCustomerId={preselectedCustomerId(params)} />
    </>
  );
}
