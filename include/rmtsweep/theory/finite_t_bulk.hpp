#pragma once
/// The bulk of S at a finite number of pooled tokens (model.md 5.5). Pure functions; no MPI, no HDF5.
///
/// Without signal, c_n = Z a_n with Z = [z_1 ... z_V] the d x V table noise (iid N(0, 1) entries) and
/// a_n in R^V the weights of sequence n at its tokens (a_n[v] = sum of w_t over the t with v_{n,t} = v).
/// So S = Z (M/N) Z^T with the centred token Gram M = A (I - 1 1^T/N) A^T, A = [a_1 ... a_N]. Z is
/// Gaussian and independent of A, hence, given A, S has exactly the law of sum_v tau_v z_v z_v^T with
/// tau the eigenvalues of M/N and z_v iid N(0, I_d). Its resolvent trace g(z) = tr (S - z)^{-1} has the
/// deterministic equivalent (Silverstein's equation, unnormalised trace)
///   g = d / (-z + sum_v tau_v / (1 + tau_v g)),
/// with real inverse z(g) = -d/g + sum_v tau_v / (1 + tau_v g). The paper's kappa (MP_delta [x] MP_gamma)
/// (model.md 5.1) is the limit of this law when the law of N tau tends to kappa MP_gamma-type, i.e. when
/// many tokens are pooled; with few (T_eff = model::effective_tokens(w) small) N tau is Poisson-like
/// and the right edge lies measurably above the paper's.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace rmtsweep::theory {

/// The T_eff below which the limit law of model.md 5.1 is measurably off at dimension d: where the finite-T
/// right edge exceeds the paper's kappa u(psi_+) by more than the Tracy-Widom-scale margin d^(-2/3) of the
/// edge rule (assemble/phase.hpp). Measured (studies/finite_t_edge_bias.py: T = 10, prefix:3, delta = 0.5,
/// gamma = 0.25; mean over 4, 3, 2 token draws at d = 400, 1000, 2000; T_eff 1.47 and 1.8 are the peaked
/// weights (r, 1) with r = 0.25, 0.5; harmonic 5.34 and optimal 3):
///
///   T_eff         1       1.47    1.8     2       3       4      10     harm.   opt.   margin d^(-2/3)
///   d = 400     +1.5 %  +0.9 %  +0.0 %  -0.2 %  +0.1 %  +0.0 % -0.0 %  +0.4 %  +0.2 %     1.8 %
///   d = 1000    +5.2 %  +4.0 %  +1.9 %  +0.6 %  +0.2 %  +0.2 % +0.0 %  +0.4 %  +0.4 %     1.0 %
///   d = 2000    +2.9 %  +2.4 %  +1.8 %  +1.3 %  +0.5 %                                    0.63 %
///
/// Trial-to-trial scatter of an entry: ~1 % at T_eff = 1, 0.2-0.9 % above. So: 2 up to d = 1000 (at d = 400
/// T_eff = 1 is within one scatter of the margin, and the edge rule already calls 28 % of its null trials
/// outliers there), 3 from d = 2000 on (T_eff = 2 then exceeds the margin twice over), interpolated in
/// log d between. The excess keeps growing with d for any fixed T_eff (the Poisson tail of the token counts),
/// so beyond d = 2000 this is a lower bound, not a measurement.
double measurable_bias_effective_tokens(int d);

/// True iff effective_tokens < measurable_bias_effective_tokens(d), a T_eff equal to it up to rounding
/// (1e-9 relative) not counting as below.
bool limit_law_measurably_off(double effective_tokens, int d);

/// tau: the eigenvalues (ascending, clipped at 0) of Q M Q/N, M = A (I - 1 1^T/N) A^T, for N sequences
/// whose tokens are `tokens` (row n holds v_{n,1..T}, row-major N x T, entries in [0, vocabulary)) pooled
/// with weights w (length T). Zero weights are skipped.
///
/// Q = I - (1 1^T + s s^T)/V (s_v = +1 for v < V/2, else -1, the token classes of model.md 1.1) when
/// `remove_table_directions`, else I. Those two directions of the table are not bulk: along s, S carries the
/// class-mean noise (1/V) sum_v s_v z_v that model.md 5.2 counts as signal (theta = g (snr + delta)), and
/// s^T M s / N = w^T R w = alpha puts a rank-one spike of relative size g = alpha/kappa into tau, which at
/// finite d pulls the edge of the deterministic equivalent up by as much as ~1 % (harmonic, d = 400). This is
/// the projection the `centered` table applies to Z; it changes M by rank 2 only, so not the limit bulk.
///
/// M is formed densely as the smaller of the V x V Gram Q A P A^T Q and the N x N Gram P A^T Q A P
/// (P = I - 1 1^T/N; same nonzero spectrum), so the cost is that of one values-only eigenvalue problem of
/// size min(V, N) (model::symmetric_eigenvalues): seconds up to ~4000, half a minute at ~8000. With one
/// nonzero weight (`last`) M is the diagonal of token counts plus rank 5, whose spectrum is computed exactly
/// from the count levels in milliseconds (the same min(V, N) values, zeros included).
std::vector<double> token_gram_spectrum(std::span<const double> w, std::span<const std::int64_t> tokens,
                                        std::int64_t vocabulary, bool remove_table_directions = true);

/// Whether exactly one of the weights w is nonzero: where token_gram_spectrum takes its
/// single-token path (milliseconds instead of a dense eigenvalue problem).
bool single_token_weights(std::span<const double> w);

/// The right edge of the deterministic equivalent of sum_v tau_v z_v z_v^T (z_v iid N(0, I_d)): the
/// minimum of z(g) = -d/g + sum_v tau_v/(1 + tau_v g) on g in (-1/tau_max, 0). z is convex there
/// (z'' = -2d/g^3 + 2 sum tau^3/(1 + tau g)^3 > 0) and tends to +infinity at both ends, so the minimum
/// is the unique zero of z'(g) = d/g^2 - sum_v tau_v^2/(1 + tau_v g)^2, found by bisection in
/// y = -g tau_max in (0, 1) to full precision. Returns 0 when every tau is 0.
double finite_t_edge(std::span<const double> tau, int d);

/// Density at x > 0 of the deterministic-equivalent spectrum of sum_v tau_v z_v z_v^T, normalised to
/// d eigenvalues: f(x) = Im m(x + i0)/pi with m = g/d solving m = 1/(-z + sum_v tau_v/(1 + d tau_v m)).
/// m is followed from z = x + i (10 edge) down to z = x + i 1e-10 edge by halving eta, each step polished
/// by Newton's method on phi(m) = -z + sum tau_v/(1 + d tau_v m) - 1/m from the previous m (steps kept in
/// Im m > 0), which stays on the physical branch. 0 outside the support.
double finite_t_density(std::span<const double> tau, int d, double x);

/// finite_t_density at `points` midpoints x_k = edge (k + 1/2)/points, k = 0..points-1, of [0, edge],
/// edge = finite_t_edge(tau, d), as pairs {x_k, f(x_k)} (the `theory --bulk finite-T --density K` curve).
std::vector<std::array<double, 2>> finite_t_density_grid(std::span<const double> tau, int d, int points);

/// The same for a bulk given as a measure (nodes with weights, e.g. the quadrature of
/// theory/gram_quadrature.hpp): every sum over tau_v becomes a weighted sum over the nodes.
std::vector<std::array<double, 2>> finite_t_density_grid(std::span<const double> nodes,
                                                         std::span<const double> weights, int d, int points);

}  // namespace rmtsweep::theory
