import * as React from 'react';
import { Link } from 'wouter';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Title of the create and edit pages, with the way back to the dashboard. */
export function FormPageHeader({ title, description }: { title: string; description: React.ReactNode }) {
  return (
    <div className="space-y-3">
      <Button asChild variant="ghost" size="sm" className="-ml-3">
        <Link href="/admin">
          <ArrowLeft /> Back to Dashboard
        </Link>
      </Button>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">{description}</p>
      </div>
    </div>
  );
}
