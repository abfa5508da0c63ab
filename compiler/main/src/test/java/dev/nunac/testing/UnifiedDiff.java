package dev.nunac.testing;

import java.util.ArrayList;
import java.util.List;

/** A small line-based unified diff (LCS), enough to read golden-file mismatches. */
public final class UnifiedDiff {
    private UnifiedDiff() {}

    private static final int CONTEXT = 3;
    private static final int MAX_HUNK_LINES = 200;

    public static String diff(String nameA, String nameB, String a, String b) {
        String[] x = a.split("\n", -1), y = b.split("\n", -1);
        int n = x.length, m = y.length;
        if ((long) n * m > 25_000_000L) return "--- " + nameA + "\n+++ " + nameB + "\n(files too large to diff: " + n + " vs " + m + " lines)\n";
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = x[i].equals(y[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        // Edit script: ' ', '-', '+' with line numbers in a and b.
        List<char[]> ops = new ArrayList<>();
        List<String> text = new ArrayList<>();
        int i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && x[i].equals(y[j])) {
                ops.add(new char[] {' '}); text.add(x[i]); i++; j++;
            } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
                ops.add(new char[] {'+'}); text.add(y[j]); j++;
            } else {
                ops.add(new char[] {'-'}); text.add(x[i]); i++;
            }
        }
        StringBuilder out = new StringBuilder("--- " + nameA + "\n+++ " + nameB + "\n");
        int k = 0, lineA = 1, lineB = 1, printed = 0;
        while (k < ops.size()) {
            if (ops.get(k)[0] == ' ') { k++; lineA++; lineB++; continue; }
            int start = Math.max(0, k - CONTEXT);
            int aStart = lineA - (k - start), bStart = lineB - (k - start);
            int end = k;
            int quiet = 0;
            while (end < ops.size() && quiet <= 2 * CONTEXT) {
                quiet = ops.get(end)[0] == ' ' ? quiet + 1 : 0;
                end++;
            }
            end = Math.min(ops.size(), end - Math.max(0, quiet - CONTEXT));
            int la = 0, lb = 0;
            StringBuilder hunk = new StringBuilder();
            for (int t = start; t < end; t++) {
                char c = ops.get(t)[0];
                hunk.append(c).append(text.get(t)).append('\n');
                if (c != '+') la++;
                if (c != '-') lb++;
            }
            out.append("@@ -").append(aStart).append(',').append(la).append(" +").append(bStart).append(',').append(lb).append(" @@\n");
            out.append(hunk);
            for (int t = k; t < end; t++) {
                char c = ops.get(t)[0];
                if (c != '+') lineA++;
                if (c != '-') lineB++;
            }
            k = end;
            printed += end - start;
            if (printed > MAX_HUNK_LINES) {
                out.append("... (diff truncated)\n");
                break;
            }
        }
        return out.toString();
    }
}
