import type * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Logo } from '@/components/ui/logo';

/** A centred card with the logo: the small public pages of account recovery. */
export function AuthCardLayout({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-page flex-col items-center justify-center gap-6 p-4 sm:p-8">
      <div className="flex items-center gap-2 text-lg font-semibold">
        <Logo /> Byline
      </div>
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </main>
  );
}
