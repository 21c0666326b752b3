import { useQuery } from '@tanstack/react-query';
import type { MyArticleItem } from '@shared/schemas/brief';

export const myArticlesKey = ['/api/brand/my-articles'] as const;

export const useMyArticles = () => useQuery<MyArticleItem[]>({ queryKey: myArticlesKey });
