/// The router model shipped with SkillGate: trained with `skillgate route train` on the dev split
/// of the evaluation corpus (`Tests/Eval/routing`), embedded so the binary needs no file.
/// `scripts/train-router.sh` regenerates `DefaultRouterModel+Weights.swift`;
/// `DefaultRouterModelTests` checks that a fresh fit of the corpus gives the same weights.
public enum DefaultRouterModel {
    /// The parsed model (parsed once, on first use).
    public static let model: RouterModel = {
        do { return try RouterModel(bytes: Array(json.utf8)) } catch {
            preconditionFailure("the embedded router model does not load: \(error); run scripts/train-router.sh")
        }
    }()
}
