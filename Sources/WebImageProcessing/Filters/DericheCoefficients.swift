import Foundation
import WebImageCore

/// The coefficients of Deriche's fourth-order recursive approximation of a Gaussian:
/// a causal and an anticausal filter whose sum follows the Gaussian of a given sigma
/// within 0.3% of its peak for sigma ≥ 0.8, at a cost that does not depend on sigma.
///
/// The constants are Deriche's fit of the Gaussian (INRIA research report 1893, 1993);
/// the gain is normalised so that a flat signal stays flat.
struct DericheCoefficients: Sendable {
    /// Feed-forward weights of the causal filter, for x[n], x[n-1], x[n-2], x[n-3].
    let causal: SIMD4<Float>
    /// Feed-forward weights of the anticausal filter, for x[n+1] … x[n+4].
    let anticausal: SIMD4<Float>
    /// Feedback weights of both filters, for y[n∓1] … y[n∓4].
    let feedback: SIMD4<Float>
    /// The causal filter's response to a constant 1 (its steady state at an edge).
    let causalEdgeGain: Float
    /// The anticausal filter's response to a constant 1.
    let anticausalEdgeGain: Float

    init(sigma: Double) {
        let (a1, b1, w1, l1) = (1.3530, 1.8151, 0.6681, -1.3932)
        let (a2, b2, w2, l2) = (-0.3531, 0.0902, 2.0787, -1.3732)
        let sin1 = sin(w1 / sigma), sin2 = sin(w2 / sigma)
        let cos1 = cos(w1 / sigma), cos2 = cos(w2 / sigma)
        let exp1 = exp(l1 / sigma), exp2 = exp(l2 / sigma)
        let n0 = a1 + a2
        let n1 = exp2 * (b2 * sin2 - (a2 + 2 * a1) * cos2) + exp1 * (b1 * sin1 - (a1 + 2 * a2) * cos1)
        let n2 =
            2 * exp1 * exp2 * ((a1 + a2) * cos2 * cos1 - b1 * cos2 * sin1 - b2 * cos1 * sin2)
            + a2 * exp1 * exp1 + a1 * exp2 * exp2
        let n3 = exp2 * exp1 * exp1 * (b2 * sin2 - a2 * cos2) + exp1 * exp2 * exp2 * (b1 * sin1 - a1 * cos1)
        let d1 = -2 * (exp2 * cos2 + exp1 * cos1)
        let d2 = 4 * cos2 * cos1 * exp1 * exp2 + exp1 * exp1 + exp2 * exp2
        let d3 = -2 * cos1 * exp1 * exp2 * exp2 - 2 * cos2 * exp2 * exp1 * exp1
        let d4 = exp1 * exp1 * exp2 * exp2
        let forward = [n0, n1, n2, n3]
        let backward = [n1 - d1 * n0, n2 - d2 * n0, n3 - d3 * n0, -d4 * n0]
        let feedbackSum = 1 + d1 + d2 + d3 + d4
        let gain = (forward.reduce(0, +) + backward.reduce(0, +)) / feedbackSum
        causal = SIMD4(forward.map { Float($0 / gain) })
        anticausal = SIMD4(backward.map { Float($0 / gain) })
        feedback = SIMD4(Float(d1), Float(d2), Float(d3), Float(d4))
        causalEdgeGain = Float(forward.reduce(0, +) / gain / feedbackSum)
        anticausalEdgeGain = Float(backward.reduce(0, +) / gain / feedbackSum)
    }

    /// One row of the causal filter down `lanes` neighbouring columns at once:
    /// `n₀x₀ + n₁x₁ + n₂x₂ + n₃x₃ − d₁y₁ − d₂y₂ − d₃y₃ − d₄y₄`, where `x` holds this row's
    /// input and the three rows above it, and `y` the filter's four outputs above it.
    @inline(__always)
    func causalRow(
        inputs x: (FloatRow, FloatRow, FloatRow, FloatRow),
        outputs y: (FloatRow, FloatRow, FloatRow, FloatRow),
        into output: FloatRow, lanes: Int
    ) {
        let (n0, n1, n2, n3) = (causal[0], causal[1], causal[2], causal[3])
        let (d1, d2, d3, d4) = (feedback[0], feedback[1], feedback[2], feedback[3])
        for lane in 0..<lanes {
            output[lane] =
                n0 * x.0[lane] + n1 * x.1[lane] + n2 * x.2[lane] + n3 * x.3[lane]
                - d1 * y.0[lane] - d2 * y.1[lane] - d3 * y.2[lane] - d4 * y.3[lane]
        }
    }

    /// One row of the anticausal filter down `lanes` neighbouring columns at once:
    /// `m₁a₁ + m₂a₂ + m₃a₃ + m₄a₄ − d₁z₁ − d₂z₂ − d₃z₃ − d₄z₄`, where `a` holds the four input
    /// rows below this one and `z` the filter's four outputs below it. `output` may be
    /// `z`'s last row: each lane is read before it is written.
    @inline(__always)
    func anticausalRow(
        inputs a: (FloatRow, FloatRow, FloatRow, FloatRow),
        outputs z: (FloatRow, FloatRow, FloatRow, FloatRow),
        into output: FloatRow, lanes: Int
    ) {
        let (m1, m2, m3, m4) = (anticausal[0], anticausal[1], anticausal[2], anticausal[3])
        let (d1, d2, d3, d4) = (feedback[0], feedback[1], feedback[2], feedback[3])
        for lane in 0..<lanes {
            output[lane] =
                m1 * a.0[lane] + m2 * a.1[lane] + m3 * a.2[lane] + m4 * a.3[lane]
                - d1 * z.0[lane] - d2 * z.1[lane] - d3 * z.2[lane] - d4 * z.3[lane]
        }
    }

    /// A row of float pixels, as the column passes address them.
    typealias FloatRow = UnsafeMutablePointer<SIMD4<Float>>
}
