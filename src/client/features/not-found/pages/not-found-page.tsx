import { Link } from 'wouter';
import { AlertCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

export function NotFoundPage() {
  return (
    <main className="flex min-h-page items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 p-6">
          <div className="flex items-center gap-2">
            <AlertCircle className="size-8 text-destructive" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">The page you are looking for does not exist or has moved.</p>
          <Button asChild variant="outline">
            <Link href="/">Go to the home page</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
