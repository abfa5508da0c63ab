package dev.nunac.passes.search;

import dev.nunac.diag.CompileException;
import dev.nunac.diag.ErrorKind;
import dev.nunac.diag.SourcePos;
import dev.nunac.pass.BasePass;
import dev.nunac.pass.Compilation;
import dev.nunac.pass.Stage;
import dev.nunac.passes.access.Accesses;
import dev.nunac.passes.alloc.LogicalAllocation;
import dev.nunac.passes.alloc.LogicalGroups;
import dev.nunac.passes.cost.AnalyticModel;
import dev.nunac.passes.cost.CostModel;
import dev.nunac.passes.cost.Estimate;
import dev.nunac.passes.cost.IdealBound;
import dev.nunac.passes.cost.MovingSteps;
import dev.nunac.passes.cost.SimulatedModel;
import dev.nunac.passes.place.DomainAssignment;
import dev.nunac.passes.place.Placement;
import dev.nunac.passes.place.PlacementInput;
import dev.nunac.passes.place.PlacementOptions;
import dev.nunac.passes.place.Placer;
import dev.nunac.passes.place.Policy;
import dev.nunac.passes.place.TopologyInput;
import dev.nunac.passes.realise.Realisation;
import dev.nunac.topology.ScaleUpModel;
import dev.nunac.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The placement decision, in one place: generates the candidates (every requested policy at
 * every NAR granularity the topology and {@code --nar} allow, the UA baseline always), places
 * each with {@link Placer}, ranks them all with the analytic cost model, refines the best
 * balanced one ({@link Refinement}), times a shortlist with the simulator and chooses the
 * fastest. The search is deterministic: candidates are placed and estimated side by side, but
 * chosen afterwards in a fixed order (a tie goes to the earlier candidate: UA before any other,
 * the paper's policies before nunac's, coarser granularities first).
 *
 * <p>The simulator times UA and the analytic best, then the rest of the {@link #shortlist} (each
 * requested policy's best and its near ties, the refined candidate, the next best), as far as
 * {@link Settings#simulationBudget} (in simulated events) allows; when not even UA and the best
 * fit, the analytic estimate decides and the result says so, and where it keeps UA with
 * streaming transfers the simulator's opening stretch referees UA and its UA+NAR granularities
 * ({@link OpeningReferee}). Choosing among all policies with UA among them, the choice is never
 * estimated slower than UA.
 */
public final class PlacementSearch extends BasePass {
    /** What the search may spend, and on what. */
    public record Settings(CostModel simulator, long simulationBudget, int maxSimulated, int refineRounds, int fullSpaceSteps,
                           long fullSpacePages, long keptPages, int twoCandidateSteps) {
        /**
         * Two million simulated events (under a second on two cores with the C1 compiler; three
         * million, before the CU and router servers made an event dearer, kept the same choice on
         * every placement golden and on all but three corpus plans, each within 1 %), sixteen
         * simulations at most (twelve, once the shortlist timed near ties, left the balanced
         * candidates by address of small plans untimed), eight refinement rounds, the whole search
         * space for plans of up to 40,000 steps whose placement maps up to four million pages (16
         * GB of buffers in 4 KiB pages: a 64-rank 1 GB all-to-all maps 31 million, and each
         * candidate then takes seconds), every candidate's placement kept while their page maps
         * total up to 16 million entries (about 200 MB), and above 250,000 steps (the command line's default limit on a plan's
         * steps) only UA and one candidate of the reduced space ({@link #twoCandidateSpace}).
         */
        public static Settings defaults() {
            return new Settings(SimulatedModel.defaults(), 2_000_000L, 16, 8, 40_000, 4_000_000L, 16_000_000L, 250_000);
        }

        /** The same with a simulation budget of {@code events} (0: the analytic estimate decides). */
        public Settings withBudget(long events) {
            return new Settings(simulator, events, maxSimulated, refineRounds, fullSpaceSteps, fullSpacePages, keptPages, twoCandidateSteps);
        }

        /** The same, timing with {@code model} (a {@link SimulationMemo} shares the timings of several searches). */
        public Settings withSimulator(CostModel model) {
            return new Settings(model, simulationBudget, maxSimulated, refineRounds, fullSpaceSteps, fullSpacePages, keptPages, twoCandidateSteps);
        }

        /** The same, keeping at most {@code pages} page-map entries of placements at once. */
        public Settings withKeptPages(long pages) {
            return new Settings(simulator, simulationBudget, maxSimulated, refineRounds, fullSpaceSteps, fullSpacePages, pages, twoCandidateSteps);
        }

        /** Every candidate simulated, the whole space at any size: for measuring the search itself. */
        public static Settings exhaustive() {
            return new Settings(SimulatedModel.defaults(), Long.MAX_VALUE, Integer.MAX_VALUE, 8, Integer.MAX_VALUE, Long.MAX_VALUE, 16_000_000L,
                    Integer.MAX_VALUE);
        }

        /** The same, taking the two-candidate space above {@code steps} steps. */
        public Settings withTwoCandidateSteps(int steps) {
            return new Settings(simulator, simulationBudget, maxSimulated, refineRounds, fullSpaceSteps, fullSpacePages, keptPages, steps);
        }
    }

    /**
     * When the analytic estimate decides, a candidate replaces UA only if it is estimated this
     * much faster: the estimate's error against the simulator on the corpus and the examples.
     */
    static final double ANALYTIC_MARGIN = 1.05;

    /** Candidates of one policy this close to its best by the analytic estimate are timed next (see {@link #shortlist}). */
    static final double NEAR_TIE = 0.01;

    /**
     * Where transfers stream ({@link #STREAMING_BYTES}), the coarsest candidate of a policy and
     * kind estimated within this of a finer one stands in for it, in the simulator's shortlist
     * (no finer near tie of that policy follows it) and in the analytic estimate's choice: the
     * estimate counts NoC contention only on a route's first and last link, so it favours fine
     * NAR domains, whose traffic funnels through fewer ports and the links before them. On the
     * Fig. 9 grid from 1 MB the best paper policy was at k = 12 at one point of 72, at k = 2 or 4
     * at 53; the 4-GPU all-gather at 10 MB had nap+nar k=12 1.4 % ahead of k=2 by the estimate and
     * 2.1 % behind it in simulation. Over the grid's 64 points the command line compiles, it moved
     * nine choices: three to the best paper policy (the 4-GPU all-gather at 10 and 100 MB, the
     * 2-GPU all-reduce at 100 MB, which were 2.1-7.8 % behind it), five within 0.4 %, and the 2-GPU
     * all-gather at 1 GB from 0.7 % to 1.3 % behind.
     */
    static final double COARSE_TIE = 0.02;

    /** A policy whose best is estimated within this factor of the overall best has its near ties timed. */
    static final double CONTENDER = 1.10;

    /**
     * When the analytic estimate decides, and even its best candidate is estimated this many times
     * the ideal bound, contention decides the time, and the estimate, which counts NoC contention
     * only on the first and last link of a route, misranks placements that funnel traffic through
     * the middle of the mesh, by more than the gains at stake: so the compile keeps UA. Over the
     * Fig. 9 grid (with the CU and router servers), its five choices that were slower than UA in
     * simulation (0.79-0.95x) lay at 1.43-1.86 times the bound; of those it got right, all but one
     * (the 16-GPU all-to-all at 100 MB, 1.49) lay at 1.19-1.38, or moved short transfers
     * ({@link #STREAMING_BYTES}). Coarser simulation as a referee instead was tried and rejected
     * (docs/placement.md).
     */
    static final double TRUSTED_OF_IDEAL = 1.4;

    /**
     * Transfers this long on average stream long enough for contention, not latency, to set their
     * time (16 pages of 4 KiB); shorter ones keep the analytic choice beyond {@link #TRUSTED_OF_IDEAL}
     * (the 64-GPU all-gather at 1 MB, 16 kB a transfer: balanced by address 1.10x UA in simulation).
     */
    static final long STREAMING_BYTES = 64 << 10;

    /** The mean bytes a data-moving step of the plan moves at the input's size. */
    static long meanTransferBytes(PlacementInput in) {
        return MovingSteps.of(in.plan()).meanBytes(in.chunkBytes());
    }

    /** What the pass spends, when a caller sets it (a comparison shares its timings); else {@link Settings#defaults}. */
    public static final dev.nunac.pass.Key<Settings> SETTINGS = dev.nunac.pass.Key.of("search-settings", Settings.class);

    public PlacementSearch() {
        super("placement-search", Stage.PLACED, java.util.List.of(PlacementOptions.KEY, Accesses.KEY, TopologyInput.KEY, LogicalGroups.KEY),
                Stage.LOGICALLY_ALLOCATED);
    }

    @Override
    public void run(Compilation c) {
        PlacementOptions opt = c.get(PlacementOptions.KEY);
        PlacementInput in = new PlacementInput(c.plan(), c.get(Accesses.KEY), c.get(TopologyInput.KEY), opt.sizeBytes(), opt.repack());
        SearchResult r = search(in, c.get(LogicalGroups.KEY), opt, c.find(SETTINGS).orElseGet(Settings::defaults));
        c.put(SearchResult.KEY, r);
        c.put(Placement.KEY, r.chosen().placement());
    }

    public static SearchResult search(PlacementInput in, LogicalGroups paperGroups, PlacementOptions opt) {
        return search(in, paperGroups, opt, Settings.defaults());
    }

    public static SearchResult search(PlacementInput given, LogicalGroups paperGroups, PlacementOptions opt, Settings settings) {
        PlacementInput in = given.withSize(opt.sizeBytes()).withRepack(opt.repack());
        Topology topo = in.topology();
        checkPages(in, opt);
        // UA comes first in every space; its placement says how many pages every candidate maps. Past
        // both step limits the space is the reduced one, two candidates at most whatever the pages,
        // so UA is placed beside the other candidate instead of before it.
        int steps = in.plan().stepCount();
        boolean largest = steps > settings.fullSpaceSteps() && steps > settings.twoCandidateSteps();
        Placement first = largest ? null : place(in, new Groups(paperGroups, null), space(topo, opt).get(0)); // UA needs no balanced groups
        boolean reduced = steps > settings.fullSpaceSteps() || pageEntries(first) > settings.fullSpacePages();
        List<Candidate> wide = reduced ? reducedSpace(topo, opt) : space(topo, opt);
        List<Candidate> two = steps > settings.twoCandidateSteps() ? twoCandidateSpace(topo, opt) : wide;
        List<Candidate> space = two.size() < wide.size() ? two : wide;
        String narrowed = space == wide ? "" : String.format(Locale.ROOT, "the plan's %,d steps exceed %,d, so the search estimated %s"
                + " only (of the reduced space's %d candidates)", steps, settings.twoCandidateSteps(),
                String.join(" and ", space.stream().map(Candidate::id).toList()), wide.size());
        Groups groupsOf = new Groups(paperGroups,
                space.stream().anyMatch(c -> c.policy().balanced) ? LogicalAllocation.allocate(in.accesses(), false) : null);
        AnalyticModel analytic = new AnalyticModel();
        // Page maps grow with the size (a 64-rank 1 GB all-to-all: about half a gigabyte per
        // placement): when the whole space's would not fit in memory, a candidate's placement is
        // dropped once estimated and made again if the simulator or the choice needs it.
        // (of two candidates, UA and the other, both placements are kept anyway: the baseline and the choice)
        boolean keep = first == null || pageEntries(first) * space.size() <= settings.keptPages();
        Scored[] scored = new Scored[space.size()];
        IdealBound.Bound[] bound = new IdealBound.Bound[1];
        IntStream.range(0, space.size()).parallel().forEach(i -> {
            Placement p = i == 0 && first != null ? first : place(in, groupsOf, space.get(i));
            scored[i] = new Scored(space.get(i), i == 0 || keep ? p : null, analytic.estimate(in, p).ns(), null);
            if (i == 0) bound[0] = IdealBound.of(in, analytic); // in UA's task, whose placement is the quickest, on the estimates' step graph
        });
        List<Scored> all = new ArrayList<>(Arrays.asList(scored));
        // spread twins are timed after the shortlist, which they would otherwise crowd (the analytic estimate favours them)
        List<Scored> twins = reduced ? List.of() : spreadTwins(in, groupsOf, all, analytic, keep);
        all.addAll(twins);
        Set<Policy> choosable = opt.policies();
        Scored bestBalanced = null;
        for (Scored s : all) {
            if (s.candidate().policy().balanced && !s.candidate().spread() && choosable(s, opt, Set.of()) && s.candidate().granularity() > 1
                    && (bestBalanced == null || s.analyticNs() < bestBalanced.analyticNs())) bestBalanced = s;
        }
        if (bestBalanced != null && settings.refineRounds() > 0 && !reduced) {
            Scored refined = Refinement.refine(in, groupsOf.balanced(), placed(in, groupsOf, bestBalanced), analytic, settings.refineRounds());
            if (refined != null) all.add(refined);
        }
        Set<Candidate> tooWide = tooWide(in, groupsOf, all, opt);
        Scored baseline = all.get(0);
        boolean streaming = meanTransferBytes(in) >= STREAMING_BYTES;
        List<Scored> shortlist = new ArrayList<>(shortlist(all.stream().filter(x -> !x.candidate().spread()).toList(), baseline, opt, tooWide,
                settings.maxSimulated(), streaming));
        for (Scored t : twins) if (choosable(t, opt, tooWide)) shortlist.add(t);
        long budget = settings.simulationBudget();
        List<Scored> timed = new ArrayList<>();
        // UA and the analytic best first: without both there is nothing to compare by simulation
        int needed = Math.min(2, shortlist.size());
        for (Scored s : shortlist) {
            Scored p = placed(in, groupsOf, s); // the simulator needs the placement, and its cost the placement's statistics
            long cost = settings.simulator().cost(in, p.placement());
            if (cost > budget && timed.size() >= needed) continue;
            if (cost > budget) break;
            budget -= cost;
            if (p != s) all.set(all.indexOf(s), p);
            timed.add(p);
        }
        boolean simulate = timed.size() >= needed;
        Estimate[] sims = new Estimate[timed.size()];
        if (simulate) {
            IntStream.range(0, timed.size()).parallel().forEach(i -> sims[i] = settings.simulator().estimate(in, timed.get(i).placement()));
            for (int i = 0; i < timed.size(); i++) all.set(all.indexOf(timed.get(i)), timed.get(i).withSimulation(sims[i]));
            baseline = all.get(0);
        }
        Scored chosen = null;
        for (Scored s : all) {
            if (!choosable(s, opt, tooWide) || (simulate && !s.wasSimulated())) continue;
            // the analytic estimate overrates spread twins (their later steps bunch at the peers' ports): only timed ones are chosen
            if (!simulate && s.candidate().spread()) continue;
            if (chosen == null || s.ns(simulate) < chosen.ns(simulate) * (1 - 1e-9)) chosen = s;
        }
        // a refined candidate was tuned against the analytic estimate: where that estimate decides, it
        // must beat every other candidate by more than the estimate's resolution (the 16-GPU
        // all-to-all at 10 MB: balanced k=4 refined 0.6 % ahead of NAP+NAR k=6, and 5.9 % behind it in simulation)
        Scored tuned = !simulate && chosen != null && chosen.candidate().refined() ? chosen : null;
        if (tuned != null) chosen = unrefinedWithin(tuned, all, opt, tooWide);
        String untuned = tuned == null || chosen == tuned ? "" : String.format(Locale.ROOT, "; %s was tuned against the analytic estimate"
                + " and is within %.0f %% of %s by it, which is taken instead", tuned.candidate().id(), 100 * COARSE_TIE, chosen.candidate().id());
        Scored finest = chosen;
        if (!simulate && streaming && chosen != null) chosen = coarsest(chosen, all, opt, tooWide);
        IdealBound.Bound ideal = bound[0];
        boolean untrusted = false;
        if (!simulate && chosen != null && chosen != baseline && choosable(baseline, opt, tooWide)) {
            if (chosen.analyticNs() * ANALYTIC_MARGIN > baseline.analyticNs()) {
                chosen = baseline; // within the analytic estimate's error of UA: keep UA
            } else if (chosen.analyticNs() > TRUSTED_OF_IDEAL * ideal.ns() && streaming) {
                chosen = baseline;
                untrusted = true;
            }
        }
        // UA kept by the analytic estimate, with transfers that stream: the opening stretch referees
        OpeningReferee.Verdict opened = null;
        if (!simulate && chosen == baseline && settings.simulationBudget() > 0 && streaming) {
            List<Scored> picks = refereed(all, baseline, opt, tooWide), list = new ArrayList<>();
            for (Scored s : picks) list.add(placed(in, groupsOf, s));
            opened = OpeningReferee.open(in, list, settings.simulator(), settings.simulationBudget(), ideal.firstNs());
            if (opened != null) {
                for (int i = 0; i < opened.opened().size(); i++) all.set(all.indexOf(picks.get(i)), opened.opened().get(i));
                simulate = true;
                untrusted = false;
                baseline = all.get(0);
                chosen = OpeningReferee.choose(opened.opened().stream().filter(x -> choosable(x, opt, tooWide)).toList());
            }
        }
        // UA timed whole and kept where transfers stream, with UA+NAR granularities the budget left
        // untimed: the opening ranks them, and one it puts ahead of UA is timed whole (2-GPU all-reduce at 1 GB)
        String secondLook = "";
        if (simulate && opened == null && chosen == baseline && streaming && settings.simulationBudget() > 0) {
            SecondLook look = secondLook(in, groupsOf, all, baseline, opt, tooWide, settings, ideal.firstNs());
            if (look != null) {
                secondLook = String.format(Locale.ROOT, "; the first %.3f us of UA and of the %d UA+NAR granularities it had not timed, simulated"
                        + " beside UA, %s", look.untilNs() / 1000, look.opened(), look.lead() == null ? "kept UA"
                        : String.format(Locale.ROOT, "put %s ahead, which the simulator then timed whole at %.3f us", look.lead().candidate().id(),
                                look.lead().simulated().ns() / 1000));
                if (look.lead() != null && look.lead().simulated().ns() < chosen.simulated().ns() * (1 - 1e-9)) chosen = finest = look.lead();
            }
        }
        if (chosen == null) throw new IllegalStateException("no candidate of " + choosable + " was estimated");
        if (chosen.placement() == null) {
            Scored dropped = chosen;
            chosen = placed(in, groupsOf, dropped);
            all.set(all.indexOf(dropped), chosen);
        }
        List<Scored> kept = new ArrayList<>();
        for (Scored s : all) kept.add(s == chosen || s == baseline ? s : s.withoutPlacement());
        String reason = (narrowed.isEmpty() ? reason(in, space.size() + twins.size(), all.size() > space.size() + twins.size(), reduced, simulate, timed.size(), opened, settings)
                : narrowed + "; " + decided(in, simulate, timed.size(), opened, settings))
                + (tooWide.isEmpty() ? "" : String.format(Locale.ROOT, "; %d of them %s not chosen: %s launch grid would exceed %d"
                        + " blocks on a rank", tooWide.size(), tooWide.size() == 1 ? "was" : "were", tooWide.size() == 1 ? "its" : "their",
                        opt.maxBlocks()))
                + (opened == null && chosen != finest && chosen != baseline ? String.format(Locale.ROOT, "; %s stands in for %s, estimated"
                        + " within %.0f %% of it at a finer granularity, which the estimate favours where transfers stream", chosen.candidate().id(),
                        finest.candidate().id(), 100 * COARSE_TIE) : "")
                + untuned
                + secondLook
                + (untrusted ? String.format(Locale.ROOT, "; its best is %.1f times the ideal bound, where it is not trusted to rank placements"
                        + " against UA, so UA is kept", all.stream().filter(x -> choosable(x, opt, tooWide)).mapToDouble(Scored::analyticNs).min().orElse(0)
                        / ideal.ns()) : "");
        return new SearchResult(chosen, baseline, kept, simulate, ideal, opt.searches(), reason, narrowed, opened == null ? 0 : opened.untilNs());
    }

    /** The best candidate neither refined nor spread when it is within {@link #COARSE_TIE} of {@code refined}; else {@code refined}. */
    static Scored unrefinedWithin(Scored refined, List<Scored> all, PlacementOptions opt, Set<Candidate> tooWide) {
        Scored best = null;
        for (Scored s : all) {
            if (s.candidate().refined() || s.candidate().spread() || !choosable(s, opt, tooWide)) continue;
            if (best == null || s.analyticNs() < best.analyticNs() * (1 - 1e-9)) best = s;
        }
        return best != null && best.analyticNs() <= refined.analyticNs() * (1 + COARSE_TIE) ? best : refined;
    }

    /** Spread twins are made of this many of the best balanced candidates. */
    static final int SPREAD_TWINS = 3;

    /**
     * The spread twins ({@link Candidate#spreadTwin}) of the {@value #SPREAD_TWINS} balanced
     * candidates the analytic estimate ranks best, placed and estimated. The nearest CU with window
     * left packs a small transfer's threadblocks onto one CU, whose injection then passes their
     * flits one after another (an 8-GPU all-gather at 100 kB: seven on one CU); spread, they start
     * together, which is faster for some plans and slower for others (the threadblocks' second
     * steps then bunch at the peers' ports), so the search keeps both.
     */
    static List<Scored> spreadTwins(PlacementInput in, Groups groupsOf, List<Scored> all, AnalyticModel analytic, boolean keep) {
        List<Scored> bal = new ArrayList<>();
        for (Scored s : all) if (s.candidate().policy().balanced && !s.candidate().spread()) bal.add(s);
        bal.sort(Comparator.comparingDouble(Scored::analyticNs)); // stable: ties keep generation order
        List<Candidate> twins = bal.subList(0, Math.min(SPREAD_TWINS, bal.size())).stream().map(s -> s.candidate().spreadTwin()).toList();
        Scored[] out = new Scored[twins.size()];
        IntStream.range(0, out.length).parallel().forEach(i -> {
            Placement p = place(in, groupsOf, twins.get(i));
            out[i] = new Scored(twins.get(i), keep ? p : null, analytic.estimate(in, p).ns(), null);
        });
        return Arrays.asList(out);
    }

    /** The paper's logical groups, and the balanced policy's (null when no candidate is balanced). */
    record Groups(LogicalGroups paper, LogicalGroups balanced) {}

    /** A candidate's placement. */
    static Placement place(PlacementInput in, Groups groupsOf, Candidate c) {
        LogicalGroups groups = c.policy().balanced ? groupsOf.balanced() : groupsOf.paper();
        int[] domains = c.byAddress() > 0 ? DomainAssignment.byAddress(in, groups, c.byAddress()) : null;
        return Placer.place(in, groups, c.policy(), c.granularity(), domains, c.spread());
    }

    /** The scored candidate with its placement, made again if it was dropped (a refined one always keeps its own). */
    static Scored placed(PlacementInput in, Groups groupsOf, Scored s) {
        return s.placement() != null ? s : new Scored(s.candidate(), place(in, groupsOf, s.candidate()), s.analyticNs(), s.simulated());
    }

    static long pageEntries(Placement p) {
        long n = 0;
        for (var m : p.pages()) n += m.stack().length;
        return n;
    }

    /** Whether the search may choose a candidate: its policy was asked for and its grid is not too wide. */
    static boolean choosable(Scored s, PlacementOptions opt, Set<Candidate> tooWide) {
        return opt.policies().contains(s.candidate().policy()) && !tooWide.contains(s.candidate());
    }

    /**
     * The candidates whose realised launch grid is wider than {@code opt.maxBlocks()} on some
     * rank; none when there is no bound, or when no candidate the options allow fits (then the
     * bound cannot be met, and whatever must launch the grid says so).
     */
    static Set<Candidate> tooWide(PlacementInput in, Groups groupsOf, List<Scored> all, PlacementOptions opt) {
        if (opt.maxBlocks() <= 0) return Set.of();
        Set<Candidate> out = new HashSet<>();
        for (Scored s : all) {
            Placement p = placed(in, groupsOf, s).placement();
            if (Realisation.widestGrid(in.plan(), p, in.topology()) > opt.maxBlocks()) out.add(s.candidate());
        }
        boolean anyFits = all.stream().anyMatch(s -> choosable(s, opt, out));
        return anyFits ? Set.copyOf(out) : Set.of();
    }

    /**
     * The shortlist for the simulator, in priority order: UA, the analytic top three, the best of
     * each requested policy (by their estimates), each followed by the policy's candidates within
     * {@link #NEAR_TIE} of it where it is a {@link #CONTENDER}, the refined candidate, then the rest
     * by analytic estimate.
     */
    static List<Scored> shortlist(List<Scored> all, Scored baseline, PlacementOptions opt, Set<Candidate> tooWide, int max, boolean streaming) {
        List<Scored> ranked = new ArrayList<>();
        for (Scored s : all) if (choosable(s, opt, tooWide)) ranked.add(s);
        ranked.sort(Comparator.comparingDouble(Scored::analyticNs)); // stable: ties keep generation order
        LinkedHashSet<Scored> out = new LinkedHashSet<>();
        out.add(baseline);
        for (int i = 0; i < Math.min(3, ranked.size()); i++) out.add(streaming ? coarsest(ranked.get(i), ranked, opt, tooWide) : ranked.get(i));
        // each policy's best, the policies in the order of their bests; a contender's followed by
        // its other candidates within the estimate's resolution of it, which it cannot tell apart
        // (8-GPU all-to-all at 1 MB: nap+nar k=12 0.4 % ahead of k=2 by the estimate, 2.3 % behind
        // it in simulation)
        Map<Policy, Scored> bestOf = new EnumMap<>(Policy.class);
        for (Scored s : ranked) {
            if (bestOf.putIfAbsent(s.candidate().policy(), s) != null) continue;
            // where transfers stream, the coarsest within COARSE_TIE stands in, and no finer near tie follows it
            Scored rep = streaming ? coarsest(s, ranked, opt, tooWide) : s;
            out.add(rep);
            if (s.analyticNs() > ranked.get(0).analyticNs() * CONTENDER) continue;
            for (Scored t : ranked) {
                if (t.candidate().policy() == s.candidate().policy() && t.analyticNs() <= s.analyticNs() * (1 + NEAR_TIE)
                        && (!streaming || t.candidate().granularity() <= rep.candidate().granularity())) out.add(t);
            }
        }
        for (Scored s : all) if (s.candidate().refined()) out.add(s);
        out.addAll(ranked);
        List<Scored> list = new ArrayList<>(out);
        return list.subList(0, Math.min(list.size(), Math.max(2, max)));
    }

    /**
     * The coarsest candidate of {@code s}'s policy and kind (the same assignment of domains by
     * load, by address over all, over half or over one) estimated within {@link #COARSE_TIE} of
     * it; {@code s} itself when none is. Refined candidates stand for themselves.
     */
    static Scored coarsest(Scored s, List<Scored> all, PlacementOptions opt, Set<Candidate> tooWide) {
        Candidate c = s.candidate();
        Scored out = s;
        if (c.refined() || c.granularity() <= 1) return s;
        for (Scored t : all) {
            Candidate d = t.candidate();
            if (d.policy() != c.policy() || d.refined() || !choosable(t, opt, tooWide) || kind(d) != kind(c)) continue;
            if (d.granularity() < out.candidate().granularity() && d.granularity() >= 2 && t.analyticNs() <= s.analyticNs() * (1 + COARSE_TIE)) out = t;
        }
        return out;
    }

    /** How a candidate assigns domains: 0 by load, 1 by address over all, 2 over half, 3 over one; plus 4 when spread. */
    private static int kind(Candidate c) {
        int b = c.byAddress();
        return (b == 0 ? 0 : b == c.granularity() ? 1 : b == 1 ? 3 : 2) + (c.spread() ? 4 : 0);
    }

    /**
     * What the opening stretch referees: UA and every UA+NAR candidate, which keep UA's CUs and
     * pages and differ only in the ports — the choice the analytic estimate ranks worst under
     * contention (at 8 GPUs and 1 GB it put k=12 first, which the simulator times at 1.005x UA
     * against k=4's 1.04x). An opening moves only the first part of each transfer, so it can rank
     * only placements that place every part of a transfer alike, as UA's hashed pages are: the
     * NUNA-aware policies fill the nearest stacks first and spill later pages further, which an
     * opening does not reach (the 4-GPU all-to-all at 1 GB: NAP+NAR k=12 read faster than UA over
     * the opening, and is 0.89x UA whole).
     */
    static List<Scored> refereed(List<Scored> all, Scored baseline, PlacementOptions opt, Set<Candidate> tooWide) {
        List<Scored> out = new ArrayList<>(List.of(baseline));
        for (Scored s : all) if (s.candidate().policy() == Policy.UA_NAR && choosable(s, opt, tooWide)) out.add(s);
        return out.subList(0, Math.min(out.size(), OpeningReferee.MAX_OPENED));
    }

    /** A second look: the stretch opened, how many UA+NAR candidates beside UA, and the one timed whole (null: the opening kept UA). */
    record SecondLook(double untilNs, int opened, Scored lead) {}

    /**
     * Where the simulator timed UA whole and kept it: UA and the UA+NAR candidates it did not time
     * are opened over one stretch ({@link OpeningReferee}), and the one the opening puts ahead of
     * UA by more than its resolution is timed whole, replacing its entry in {@code all}. Null when
     * none is untimed or the opening does not fit.
     */
    static SecondLook secondLook(PlacementInput in, Groups groupsOf, List<Scored> all, Scored baseline, PlacementOptions opt,
                                 Set<Candidate> tooWide, Settings settings, double firstNs) {
        List<Scored> picks = new ArrayList<>(List.of(baseline));
        for (Scored s : all) {
            if (s.candidate().policy() == Policy.UA_NAR && choosable(s, opt, tooWide) && !s.wasSimulated()
                    && picks.size() < OpeningReferee.MAX_OPENED) picks.add(s);
        }
        if (picks.size() < 2) return null;
        List<Scored> list = new ArrayList<>();
        for (Scored s : picks) list.add(placed(in, groupsOf, s));
        // the opening's estimates scale UA's whole simulated time, not its analytic one
        OpeningReferee.Verdict v = OpeningReferee.open(in, list, settings.simulator(), settings.simulationBudget(), firstNs, baseline.simulated().ns());
        if (v == null) return null;
        int lead = v.opened().indexOf(OpeningReferee.choose(v.opened()));
        if (lead <= 0) return new SecondLook(v.untilNs(), v.opened().size() - 1, null);
        Scored timed = list.get(lead).withSimulation(settings.simulator().estimate(in, list.get(lead).placement()));
        all.set(all.indexOf(picks.get(lead)), timed);
        return new SecondLook(v.untilNs(), v.opened().size() - 1, timed);
    }

    /** The candidates: UA, then every requested policy at every allowed granularity, without twins. */
    static List<Candidate> space(Topology topo, PlacementOptions opt) {
        int[] ks = granularities(topo, opt);
        boolean direct = topo.scaleUp().model() == ScaleUpModel.DIRECT;
        Set<Policy> ps = EnumSet.copyOf(opt.policies());
        ps.add(Policy.UA);
        List<Candidate> out = new ArrayList<>();
        Set<String> effective = new HashSet<>();
        for (Policy p : Policy.values()) {
            if (!ps.contains(p)) continue;
            // on a direct topology the peer fixes the port: no granularity applies (0)
            int[] pk = direct ? new int[] {0} : !p.nar ? new int[] {1} : ks;
            for (int k : pk) {
                // a NAR policy at granularity 1 hashes like its twin without NAR: one of the two is
                // enough when both are requested
                boolean hashedTwin = p.nar && k <= 1 && !p.balanced && opt.policies().contains(twin(p));
                String key = (hashedTwin ? twin(p).id() : p.id()) + "@" + k;
                if (effective.add(key)) out.add(new Candidate(p, k));
                if (p.balanced && k > 1 && !direct) {
                    // by address over all the domains, over the first half (one edge of a chip with
                    // ports on two), and over one (the whole collective behind one domain's ports)
                    out.add(new Candidate(p, k, k, false));
                    if (k % 2 == 0 && k > 2) out.add(new Candidate(p, k, k / 2, false));
                    out.add(new Candidate(p, k, 1, false));
                }
            }
        }
        return out;
    }

    /** Every candidate maps each page of every buffer: refuse a size whose pages no placement could map in seconds. */
    public static void checkPages(PlacementInput in, PlacementOptions opt) {
        long pages = in.pages();
        if (pages <= opt.maxPages()) return;
        throw new CompileException(ErrorKind.PLAN, in.plan().pos(), "at " + in.sizeBytes() + " bytes the plan's buffers span "
                + (pages == Long.MAX_VALUE ? "more than 2^63" : pages) + " pages of " + in.topology().budgets().pageSize()
                + " bytes; a placement may map at most " + opt.maxPages() + " (choose a smaller --size, or raise the limit with"
                + " --limit pages=N)");
    }

    private static Policy twin(Policy p) {
        return switch (p) {
            case UA_NAR -> Policy.UA;
            case NUMA_NAR -> Policy.NUMA;
            case NAP_NAR -> Policy.NAP;
            case NAP_STAR_NAR -> Policy.NAP_STAR;
            default -> p;
        };
    }

    /**
     * The space for large plans, where every candidate costs a placement of many threadblocks and
     * an estimate of many steps: UA, the paper's UA+NAR (UA's placement with NAR's ports, which
     * the opening stretch found the fastest at most of the Fig. 9 grid's largest points) and
     * NAP+NAR, and the balanced policy by address (over all of the domains and over half), at the
     * granularities up to 4 that {@code --nar} allows.
     */
    static List<Candidate> reducedSpace(Topology topo, PlacementOptions opt) {
        List<Candidate> out = new ArrayList<>();
        for (Candidate c : space(topo, opt)) {
            Policy p = c.policy();
            boolean keep = p == Policy.UA || (p == Policy.UA_NAR || p == Policy.NAP_NAR || p == Policy.BALANCED && c.byAddress() > 0) && c.granularity() <= 4;
            if (keep || opt.policies().size() == 1) out.add(c);
        }
        if (out.stream().noneMatch(c -> opt.policies().contains(c.policy()))) return space(topo, opt);
        return out;
    }

    /**
     * The space for the largest plans, where each of the reduced space's candidates costs about a
     * second of CPU (placed and estimated at 500,000 steps): UA and one other candidate of the
     * reduced space, NAP+NAR (the paper's Algorithm 1) when it is there, else a requested
     * policy's, at the largest granularity up to 4 (else the smallest above). UA is estimated as
     * everywhere, so the choice is still never estimated slower than UA.
     */
    static List<Candidate> twoCandidateSpace(Topology topo, PlacementOptions opt) {
        List<Candidate> reduced = reducedSpace(topo, opt);
        Candidate pick = null;
        for (Candidate c : reduced) {
            if (c.policy() == Policy.UA || !opt.policies().contains(c.policy())) continue;
            if (pick == null || PREFERRED.compare(c, pick) > 0) pick = c; // ties keep the earlier
        }
        return pick == null ? List.of(reduced.get(0)) : List.of(reduced.get(0), pick);
    }

    /** NAP+NAR before another policy, a granularity up to 4 before a larger one, then the largest up to 4 (else the smallest above). */
    private static final Comparator<Candidate> PREFERRED = Comparator.comparing((Candidate c) -> c.policy() == Policy.NAP_NAR)
            .thenComparing(c -> c.granularity() <= 4)
            .thenComparingInt(c -> c.granularity() <= 4 ? c.granularity() : -c.granularity());

    /** The granularities {@code --nar} allows on the topology, ascending; one it lacks is a usage error (checked by the CLI before the plan is read). */
    public static int[] granularities(Topology topo, PlacementOptions opt) {
        int[] ks = topo.narGranularities();
        Arrays.sort(ks);
        if (opt.nar() == PlacementOptions.NAR_OFF) return new int[] {1};
        if (opt.nar() > 0) {
            if (Arrays.stream(ks).noneMatch(k -> k == opt.nar())) {
                throw new CompileException(ErrorKind.USAGE, SourcePos.NONE, "--nar " + opt.nar() + ": topology " + topo.name()
                        + " supports granularities " + Arrays.toString(ks).replaceAll("[\\[\\]]", ""));
            }
            return new int[] {opt.nar()};
        }
        return ks;
    }

    private static String reason(PlacementInput in, int candidates, boolean refined, boolean reduced, boolean simulated, int timed,
                                 OpeningReferee.Verdict opened, Settings settings) {
        String space = String.format(Locale.ROOT, "%d candidates%s%s ranked by the analytic estimate", candidates,
                reduced ? String.format(Locale.ROOT, " (the reduced space of plans over %,d steps or %,d pages: UA, ua+nar, nap+nar and"
                        + " balanced at granularities up to 4)", settings.fullSpaceSteps(), settings.fullSpacePages()) : "", refined ? " and a refinement" : "");
        return space + "; " + decided(in, simulated, timed, opened, settings);
    }

    /** Which model decided, and why. */
    private static String decided(PlacementInput in, boolean simulated, int timed, OpeningReferee.Verdict opened, Settings settings) {
        String tooLarge = String.format(Locale.ROOT, "the plan (%d steps at %,d bytes) is too large to simulate twice within the compile's"
                + " budget of %,d simulated events", in.plan().stepCount(), in.sizeBytes(), settings.simulationBudget());
        if (opened != null) {
            return tooLarge + String.format(Locale.ROOT, ", so the simulator ran the first %.3f us of UA and of %d UA+NAR granularities, each"
                    + " estimated at UA's analytic time scaled by the data it had landed by then against UA's, and the coarsest within %.0f %%"
                    + " of the fastest was taken (nunac simulate times the whole)", opened.untilNs() / 1000, opened.opened().size() - 1,
                    100 * (OpeningReferee.MARGIN - 1));
        }
        if (simulated && timed == 1) return "the simulator timed it";
        if (simulated) return String.format(Locale.ROOT, "the simulator timed UA and the best %d", timed - 1);
        return tooLarge + ", so the analytic estimate decided (nunac simulate times it)";
    }
}
