import { Construction } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';

/** A screen that later work fills in: says what will appear here so navigation never breaks. */
export function PlaceholderPage({ title, description, upcoming }: { title: string; description: string; upcoming: string }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">{description}</p>
      </div>
      <EmptyState icon={<Construction />} title="Coming soon" description={upcoming} />
    </div>
  );
}
